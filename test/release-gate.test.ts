import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseGithubOutput, runCli } from "../packages/cli/test/upload/support/run-cli";
import { call, newKey, stack } from "./support/api";

/**
 * The CLI's release gate (issue 24 item 3, docs/release-safety.md): `hangar upload --fail-on
 * <kinds>` against the local stack, with APKs apksigner signed with two different keys
 * (packages/inspect/fixtures/build-signing-fixtures.ts). A change it names exits 7 AFTER the
 * upload, with a message naming the change and the build's page, and the build stays available;
 * nothing it names exits 0; the GitHub outputs carry the changes either way; an unknown kind is a
 * usage error before anything is sent.
 */
const SIGNING = join(import.meta.dirname, "../packages/inspect/fixtures/apk/signing");
const RSA = join(SIGNING, "signed-v2v3-rsa.apk");
const EC = join(SIGNING, "signed-v2-ec.apk");

const work = mkdtempSync(join(tmpdir(), "hangar-gate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Change = { kind: string; severity: string; message: string };

describe("hangar upload --fail-on", () => {
  it("fails the pipeline after uploading a build signed with another key, and passes when nothing named changed", async () => {
    const key = await newKey();
    const env = (output: string) => ({ HANGAR_URL: stack().baseUrl, HANGAR_CLIENT_ID: key.clientId, HANGAR_CLIENT_SECRET: key.clientSecret, GITHUB_OUTPUT: output });
    const outputs = (name: string) => {
      const path = join(work, name);
      writeFileSync(path, "");
      return path;
    };

    const firstOut = outputs("first");
    const first = await runCli(["upload", RSA, "--fail-on", "signing-key-changed,build-number-not-increased", "-q"], { env: env(firstOut) });
    // A first build: nothing to compare with, nothing to fail on.
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Changes:   none to show (the first build of this app in the project)");
    expect(parseGithubOutput(readFileSync(firstOut, "utf8"))).toMatchObject({ changes: "[]", danger_changes: "0", failed_changes: "" });

    const secondOut = outputs("second");
    const second = await runCli(["upload", EC, "--fail-on", "signing-key-changed", "-q"], { env: env(secondOut) });
    expect(second.code, second.stderr).toBe(7);
    const fileId = /^file_id<<(\S+)\n(.*)\n\1$/m.exec(readFileSync(secondOut, "utf8"))![2]!;
    expect(second.stderr).toContain("hangar upload: release gate: --fail-on caught 1 change since");
    expect(second.stderr).toMatch(/- signing-key-changed: Signed with another key/);
    expect(second.stderr).toContain(`${stack().baseUrl}/files/${fileId}`);
    // Printed most severe first, each with the kind --fail-on names.
    expect(second.stdout).toMatch(/Changes since [^\n]+:\n {4}DANGER {3}Build number \S+ is the same[^\n]+\[build-number-repeated\]\n {4}DANGER {3}Signed with another key[^\n]+\[signing-key-changed\]\n/);
    const written = parseGithubOutput(readFileSync(secondOut, "utf8"));
    expect(JSON.parse(written.changes!).map((c: Change) => `${c.kind}:${c.severity}`)).toEqual(["build-number-repeated:danger", "signing-key-changed:danger"]);
    expect(written).toMatchObject({ danger_changes: "2", failed_changes: "signing-key-changed" });
    // Uploaded all the same: the build is there to inspect.
    const share = /^share_url<<(\S+)\n(.*)\n\1$/m.exec(readFileSync(secondOut, "utf8"))![2]!;
    expect((await call(new URL(share).pathname)).status).toBe(200);

    // The same kind of change, but the gate names another: exit 0, the outputs still carry the changes.
    const thirdOut = outputs("third");
    const third = await runCli(["upload", RSA, "--fail-on", "permission-added", "--json", "-q"], { env: env(thirdOut) });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toBe("");
    const answer = JSON.parse(third.stdout) as { diff: { previous: { fileId: string }; changes: Change[] } };
    expect(answer.diff.previous.fileId).toBe(fileId);
    expect(answer.diff.changes.map((c) => c.kind)).toEqual(["build-number-repeated", "signing-key-changed"]);
    expect(parseGithubOutput(readFileSync(thirdOut, "utf8"))).toMatchObject({ danger_changes: "2", failed_changes: "" });
  }, 120_000);

  it("refuses an unknown kind before uploading anything (exit 2)", async () => {
    const key = await newKey();
    const env = { HANGAR_URL: stack().baseUrl, HANGAR_CLIENT_ID: key.clientId, HANGAR_CLIENT_SECRET: key.clientSecret };
    const run = await runCli(["upload", RSA, "--fail-on", "signing-key-changed,permision-added"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--fail-on: unknown change kind permision-added");
    expect(run.stdout).toBe("");
    // That nothing reached the service is counted against a fake in packages/cli/test/upload/build-changes.test.ts.
  }, 60_000);
});
