import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "@hangar/core/dynamo";
import { installLinkHash } from "@hangar/core/testers";
import plist from "plist";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startStackProcess, type StackProcess } from "./support/local-stack-process";

/**
 * The signed enroll profile (docs/devices.md, "Signing the profile") on a stack of its own whose
 * HANGAR_ENROLL_SIGNING_PEM_FILE names a throwaway identity: what `GET /devices/enroll` answers is
 * a CMS SignedData that OpenSSL verifies against that certificate, with the profile inside. (The
 * shared stack hands out the unsigned profile: test/devices.test.ts.)
 */

const dir = mkdtempSync(join(tmpdir(), "hangar-devices-signed-"));
let stack: StackProcess;
let client: DynamoDBClient;

const openssl = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });

beforeAll(async () => {
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Hangar test profile signer", "-days", "2", "-keyout", "signer.key", "-out", "signer.pem"]);
  writeFileSync(join(dir, "identity.pem"), `${readFileSync(join(dir, "signer.pem"), "utf8")}${readFileSync(join(dir, "signer.key"), "utf8")}`);
  stack = await startStackProcess(join(dir, "data"), { HANGAR_DYNAMODB_IN_MEMORY: "1", HANGAR_ENROLL_SIGNING_PEM_FILE: join(dir, "identity.pem") });
  client = new DynamoDBClient({ endpoint: stack.info.dynamoEndpoint, region: stack.info.region, credentials: stack.info.credentials });
}, 200_000);

afterAll(async () => {
  client?.destroy();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("answers the profile as CMS SignedData that openssl cms and smime verify with the configured certificate", async () => {
  // A personal install link's item (what a distribution writes) names the workspace and the tester.
  const token = randomBytes(32).toString("base64url");
  await DynamoDBDocumentClient.from(client).send(
    new PutCommand({
      TableName: stack.info.tableName,
      Item: { ...keys.installLink(installLinkHash(token)), type: "installLink", email: "tester@hangar.test", fileId: "fil_signed", projectId: "prj_signed", workspaceId: "ws_0000000000000001", createdAt: new Date().toISOString() },
    }),
  );
  const reply = await fetch(`${stack.info.baseUrl}/devices/enroll?return=${encodeURIComponent(`/install/${token}`)}`);
  expect(reply.status, await reply.clone().text()).toBe(200);
  expect(reply.headers.get("content-type")).toBe("application/x-apple-aspen-config");
  writeFileSync(join(dir, "profile.mobileconfig"), Buffer.from(await reply.arrayBuffer()));
  for (const tool of ["cms", "smime"]) {
    const content = openssl([tool, "-verify", "-inform", "DER", "-in", "profile.mobileconfig", "-CAfile", "signer.pem", "-purpose", "any"]);
    const profile = plist.parse(content.toString("utf8")) as Record<string, any>;
    expect(profile).toMatchObject({ PayloadType: "Profile Service", PayloadDisplayName: "Hangar — register this device" });
    expect(profile.PayloadContent.URL).toBe(`${stack.info.baseUrl}/devices/enroll/callback`);
    expect(profile.PayloadContent.Challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  }
  // Signed by exactly that certificate.
  const signer = openssl(["cms", "-cmsout", "-print", "-inform", "DER", "-in", "profile.mobileconfig"]).toString("utf8");
  expect(signer).toContain("Hangar test profile signer");
});
