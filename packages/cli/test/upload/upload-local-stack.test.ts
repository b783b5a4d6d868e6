import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { randomIds, rateWindow, type CreatedApiKey } from "@hangar/core";
import { keys } from "@hangar/core/dynamo";
import { mintLocalApiKey } from "@hangar/local";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStackProcess, type StackProcess } from "../../../../test/support/local-stack-process";
import { REPO_ROOT, parseGithubOutput, runCli } from "./support/run-cli";

/**
 * `hangar upload` end to end against the real service: one local stack (its own process, JVM
 * included) for the whole file. The stack's rate limit is 2 requests per 2 s per key, so a fresh
 * key per test has exactly the budget of one upload (presign + complete) and the 429 test spends
 * it beforehand.
 */

const APK = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk");
const IPA = join(REPO_ROOT, "packages/inspect/fixtures/ipa/xml-plist.ipa");

let dataDir: string;
let work: string;
let stack: StackProcess;

const newKey = () =>
  mintLocalApiKey(stack.info, { email: "cli-test@hangar.test", projectName: `cli-${randomIds.userKey()}` });

const envFor = (key: CreatedApiKey, extra: Record<string, string> = {}) => ({
  HANGAR_URL: stack.info.baseUrl,
  HANGAR_CLIENT_ID: key.clientId,
  HANGAR_CLIENT_SECRET: key.clientSecret,
  ...extra,
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "hangar-cli-stack-"));
  work = mkdtempSync(join(tmpdir(), "hangar-cli-files-"));
  stack = await startStackProcess(dataDir, { HANGAR_RATE_LIMIT: "2", HANGAR_RATE_WINDOW_SECONDS: "2" });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}, 30_000);

describe("hangar upload against the local stack", () => {
  it("uploads an APK, prints its metadata and links, and the download link serves the same bytes", async () => {
    const run = await runCli(["upload", APK], { env: envFor(await newKey()) });
    expect(run.stderr).not.toContain("hangar upload:");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Name:      Literal App — ünïcödé");
    expect(run.stdout).toContain("Bundle ID: com.hangar.literal");
    expect(run.stdout).toContain("Version:   1.0.4 [BETA]");
    const share = /Share:\s+(\S+)/.exec(run.stdout)![1]!;
    const download = /Download:\s+(\S+)/.exec(run.stdout)![1]!;
    expect(share).toMatch(new RegExp(`^${stack.info.baseUrl}/share/[^/]+$`));

    const file = await fetch(download);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(APK))).toBe(true);
    expect((await fetch(share)).status).toBe(200);
  });

  it("uploads an IPA with --json (stdout is only the answer) and writes GITHUB_OUTPUT", async () => {
    const outputFile = join(work, "github-output");
    const run = await runCli(["upload", IPA, "--json"], { env: envFor(await newKey(), { GITHUB_OUTPUT: outputFile }) });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      fileId: string;
      userKey: string;
      shareUrl: string;
      downloadUrl: string;
      metadata: Record<string, string>;
      timings: Record<string, number>;
    };
    expect(result.metadata).toMatchObject({ appName: "Demo App", bundleId: "com.example.demo", version: "1.4.2" });
    expect(result.shareUrl).toBe(`${stack.info.baseUrl}/share/${result.userKey}`);
    expect(result.timings.totalMs).toBeGreaterThan(0);
    expect(parseGithubOutput(readFileSync(outputFile, "utf8"))).toEqual({
      share_url: result.shareUrl,
      download_url: result.downloadUrl,
      file_id: result.fileId,
      user_key: result.userKey,
      version: "1.4.2",
      app_name: "Demo App",
      bundle_id: "com.example.demo",
      qr_code_url: `${result.shareUrl}/qr.svg`,
      install_url: `itms-services://?action=download-manifest&url=${encodeURIComponent(`${result.shareUrl}/manifest.plist`)}`,
      // The project's first build: nothing changed since anything, no gate.
      changes: "[]",
      danger_changes: "0",
      failed_changes: "",
    });
    // Both answer on the stack: the QR code and the manifest the install link names.
    expect((await fetch(`${result.shareUrl}/qr.svg`)).headers.get("content-type")).toBe("image/svg+xml");
    expect((await fetch(`${result.shareUrl}/manifest.plist`)).status).toBe(200);
  });

  it("warns about an App Store-signed IPA, writes no install_url, and --json says installable: false", async () => {
    const outputFile = join(work, "github-output-app-store");
    const appStoreIpa = join(REPO_ROOT, "packages/inspect/fixtures/ipa/unicode-names.ipa");
    const run = await runCli(["upload", appStoreIpa, "--json"], { env: envFor(await newKey(), { GITHUB_OUTPUT: outputFile }) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("warning: uploaded, but testers cannot install this build from its link");
    expect(run.stderr).toContain("(app_store_signed)");
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ installable: false, reason: "app_store_signed", metadata: { installable: false, reason: "app_store_signed" } });
    expect(result).not.toHaveProperty("installUrl");
    const outputs = parseGithubOutput(readFileSync(outputFile, "utf8"));
    expect(outputs.share_url).toBe(result.shareUrl);
    expect(outputs).not.toHaveProperty("install_url");
  });

  it("exits 3 on a wrong secret", async () => {
    const key = await newKey();
    const run = await runCli(["upload", APK], { env: envFor(key, { HANGAR_CLIENT_SECRET: `${key.clientSecret}x` }) });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/401 invalid_credentials/);
    expect(run.stderr + run.stdout).not.toContain(key.clientSecret);
  });

  it("waits out a 429 and then succeeds", async () => {
    const key = await newKey();
    // The key's counter is spent up to two windows ahead (4–6 s), written straight into its rate
    // window on the key item (a window ahead of the clock counts as the current one): the CLI's
    // first request is refused whatever the machine's load, where a burner racing the CLI for the
    // window's two slots could lose the race and prove nothing.
    const rule = { limit: 2, windowSeconds: 2 };
    const now = new Date();
    const doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: stack.info.dynamoEndpoint, region: stack.info.region, credentials: stack.info.credentials }),
    );
    try {
      const window = rateWindow(rule, new Date(now.getTime() + 2 * rule.windowSeconds * 1000));
      await doc.send(
        new UpdateCommand({
          TableName: stack.info.tableName,
          Key: keys.apiKey(key.clientId),
          UpdateExpression: "SET rateWindow = :start, rateCount = :count",
          ExpressionAttributeValues: { ":start": window.start, ":count": rule.limit },
        }),
      );
    } finally {
      doc.destroy();
    }
    const run = await runCli(["upload", APK], { env: envFor(key) });
    expect(run.stderr).toMatch(/hangar: presign rate limited; retry \d\/5 in \d/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Bundle ID: com.hangar.literal");
  });

  it("exits 6 when the service rejects the package (random bytes named x.apk, sent with --no-verify)", async () => {
    const junk = join(work, "x.apk");
    writeFileSync(junk, randomBytes(64 * 1024));
    const run = await runCli(["upload", junk, "--json", "--no-verify"], { env: envFor(await newKey()) });
    expect(run.code).toBe(6);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: "invalid_package", status: 422, step: "complete", exitCode: 6 } });
    expect(run.stderr).toMatch(/422 invalid_package/);
  });

  it("refuses locally what complete would refuse, with complete's code, reason and message, and uploads nothing", async () => {
    for (const [name, bytes] of [
      ["six.apk", Buffer.from("hello!")],
      ["x.apk", randomBytes(64 * 1024)],
    ] as const) {
      const file = join(work, name);
      writeFileSync(file, bytes);
      const server = await runCli(["upload", file, "--json", "--no-verify"], { env: envFor(await newKey()) });
      const serverError = JSON.parse(server.stdout).error;
      expect(serverError).toMatchObject({ code: "invalid_package", status: 422 });

      // Nothing is sent (the fake server's test counts the requests): any URL would do.
      const local = await runCli(["upload", file, "--json"], { env: envFor(await newKey(), { HANGAR_URL: "http://127.0.0.1:9" }) });
      expect(local.code, name).toBe(6);
      const localError = JSON.parse(local.stdout).error;
      expect(localError, name).toMatchObject({ code: serverError.code, reason: serverError.reason, step: "verify", exitCode: 6 });
      // The service's message, as the CLI prints a server error ("complete: 422 <code>: <message> (request …)").
      expect(serverError.message, name).toContain(`complete: 422 invalid_package: ${localError.message} (request `);
    }
  });

  it("exits 2 when presign refuses the request itself (400 on a 300-character file name)", async () => {
    const run = await runCli(["upload", APK, "--name", `${"a".repeat(300)}.apk`], { env: envFor(await newKey()) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/presign: 400 invalid_request: .*fileName/);
  });
});
