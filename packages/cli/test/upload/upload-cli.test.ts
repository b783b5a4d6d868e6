import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { noiseBlock, writeBigAssetApk } from "../../../inspect/fixtures/large-fixtures";
import { FAKE_CLIENT_ID, FAKE_SECRET, startFakeHangar, type FakeHangar } from "./support/fake-hangar";
import { REPO_ROOT, parseGithubOutput, runCli, signalWhenStderrShows } from "./support/run-cli";

/** `hangar upload` as CI runs it (the real bin, in its own process) against the scriptable fake. */

let dir: string;
let apk: string;
let fake: FakeHangar;
const env = () => ({ HANGAR_URL: fake.url, HANGAR_CLIENT_ID: FAKE_CLIENT_ID, HANGAR_CLIENT_SECRET: FAKE_SECRET });
const count = (method: string, suffix: string) => fake.requests.filter((r) => r.method === method && r.path.includes(suffix)).length;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hangar-cli-"));
  apk = join(dir, "app-release.apk");
  // A real APK of about 3 MB (`hangar upload` reads the package before sending it): a small
  // app plus an incompressible asset, so progress and a dropped PUT have bytes to show.
  await writeBigAssetApk(apk, join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk"), 3 * 1024 * 1024 - 64 * 1024, { block: noiseBlock() });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  fake = await startFakeHangar();
});
afterEach(async () => {
  await fake.close();
});

describe("hangar upload (bin)", () => {
  it("prints links, name, bundle id and version; progress goes to stderr as plain lines without a TTY", async () => {
    const run = await runCli(["upload", apk], { env: env() });
    expect(run.stderr).not.toContain("\r");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Share:     ${fake.url}/share/ukfile1`);
    expect(run.stdout).toContain(`Download:  ${fake.url}/download/ukfile1`);
    expect(run.stdout).toContain("Name:      Fake App");
    expect(run.stdout).toContain("Bundle ID: com.example.fake");
    expect(run.stdout).toContain("Version:   1.2.3 (45)");
    expect(run.stderr).toMatch(/uploading app-release\.apk: 100% \(3\.1 MB of 3\.1 MB/);
  });

  it("--json prints only the parsed answer plus timings on stdout; --quiet leaves stderr empty", async () => {
    const run = await runCli(["upload", apk, "--json", "--quiet"], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      fileId: "file1",
      userKey: "ukfile1",
      shareUrl: `${fake.url}/share/ukfile1`,
      downloadUrl: `${fake.url}/download/ukfile1`,
      metadata: { appName: "Fake App", bundleId: "com.example.fake", version: "1.2.3" },
    });
    const timings = result.timings as Record<string, number>;
    for (const key of ["presignMs", "putMs", "completeMs", "totalMs"]) expect(typeof timings[key]).toBe("number");
  });

  it("appends the step outputs to $GITHUB_OUTPUT in heredoc form", async () => {
    const outputFile = join(dir, "github-output");
    writeFileSync(outputFile, "earlier=kept\n");
    const run = await runCli(["upload", apk, "--github-output", "-q"], { env: { ...env(), GITHUB_OUTPUT: outputFile } });
    expect(run.code).toBe(0);
    const text = readFileSync(outputFile, "utf8");
    expect(text.startsWith("earlier=kept\n")).toBe(true);
    expect(parseGithubOutput(text)).toEqual({
      share_url: `${fake.url}/share/ukfile1`,
      download_url: `${fake.url}/download/ukfile1`,
      file_id: "file1",
      user_key: "ukfile1",
      version: "1.2.3",
      app_name: "Fake App",
      bundle_id: "com.example.fake",
      qr_code_url: `${fake.url}/share/ukfile1/qr.svg`,
      // This fake answers no diff: no changes to list, none caught.
      changes: "[]",
      danger_changes: "0",
      failed_changes: "",
    });
  });

  it("warns about a build no tester can install, writes no install_url, and --json says installable and reason", async () => {
    const ipa = join(dir, "rocket.ipa");
    writeFileSync(ipa, readFileSync(new URL("../../../inspect/fixtures/ipa/unicode-names.ipa", import.meta.url)));
    const appStoreSigned = () => ({
      status: 200,
      body: {
        message: "Upload completed",
        fileId: "file1",
        userKey: "ukfile1",
        downloadUrl: `${fake.url}/download/ukfile1`,
        shareUrl: `${fake.url}/share/ukfile1`,
        installUrl: "itms-services://?action=download-manifest&url=x",
        metadata: { appName: "Rocket", bundleId: "com.example.rocket", version: "3.0", platform: "ios", installable: false, reason: "app_store_signed" },
      },
    });

    fake.script.complete.push(appStoreSigned());
    const outputFile = join(dir, "github-output-ipa");
    writeFileSync(outputFile, "");
    const text = await runCli(["upload", ipa, "-q"], { env: { ...env(), GITHUB_OUTPUT: outputFile } });
    expect(text.code).toBe(0);
    expect(text.stderr).toContain("warning: uploaded, but testers cannot install this build from its link");
    expect(text.stderr).toContain("App Store");
    expect(text.stderr).toContain("(app_store_signed)");
    expect(text.stdout).toContain("Install:   not installable from the link (app_store_signed)");
    expect(text.stdout).not.toContain("itms-services");
    const outputs = parseGithubOutput(readFileSync(outputFile, "utf8"));
    expect(outputs.share_url).toBe(`${fake.url}/share/ukfile1`);
    expect(outputs).not.toHaveProperty("install_url");

    fake.script.complete.push(appStoreSigned());
    const json = await runCli(["upload", ipa, "--json", "-q"], { env: env() });
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ installable: false, reason: "app_store_signed", metadata: { installable: false, reason: "app_store_signed" } });
    expect(result).not.toHaveProperty("installUrl");
  });

  it("an installable iOS build gets its install_url and no warning", async () => {
    const ipa = join(dir, "demo.ipa");
    writeFileSync(ipa, readFileSync(new URL("../../../inspect/fixtures/ipa/xml-plist.ipa", import.meta.url)));
    fake.script.complete.push({
      status: 200,
      body: {
        message: "Upload completed",
        fileId: "file1",
        userKey: "ukfile1",
        downloadUrl: `${fake.url}/download/ukfile1`,
        shareUrl: `${fake.url}/share/ukfile1`,
        metadata: { appName: "Demo", bundleId: "com.example.demo", version: "1.0", platform: "ios", installable: true },
      },
    });
    const run = await runCli(["upload", ipa, "--json"], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("warning");
    expect(JSON.parse(run.stdout)).toMatchObject({ installable: true, installUrl: expect.stringMatching(/^itms-services:/) });
  });

  it("retries a PUT whose connection dropped, from the start, and succeeds", async () => {
    fake.script.put.push({ drop: true, afterBytes: 1024 * 1024 });
    const run = await runCli(["upload", apk], { env: env() });
    expect(run.code).toBe(0);
    expect(count("PUT", "/storage/")).toBe(2);
    expect(run.stderr).toMatch(/hangar: put .*retry 1\/5/);
    expect(fake.lastStored()!.size).toBe(statSync(apk).size);
  });

  it("exits 2 on usage errors, before any request", async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["upload"], env(), /missing the file to upload/],
      [["upload", apk, apk], env(), /exactly one file/],
      [["upload", join(dir, "notes.zip")], env(), /only \.apk and \.ipa/],
      [["upload", apk], { HANGAR_URL: fake.url }, /missing HANGAR_CLIENT_ID \(or --client-id\), HANGAR_CLIENT_SECRET/],
      [["upload", apk, "--max-retries", "many"], env(), /--max-retries/],
      [["upload", apk, "--bogus"], env(), /Unknown option '--bogus'/],
      [["upload", apk, "--url", "ftp://x"], env(), /must be an http\(s\) address/],
      [["upload", apk, "--github-output"], env(), /needs the GITHUB_OUTPUT variable/],
      [["upload", join(dir, "missing.apk")], env(), /no such file/],
    ];
    const runs = await Promise.all(cases.map(([args, e]) => runCli(args, { env: e })));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0].join(" ")).toBe(2);
      expect(run.stderr).toMatch(cases[i]![2]);
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("a wrong value (a .zip, a missing credential) is one line on stderr, not the whole help; a wrong flag keeps the help", async () => {
    const zip = await runCli(["upload", join(dir, "notes.zip")], { env: env() });
    expect(zip.code).toBe(2);
    expect(zip.stderr).toBe("hangar upload: notes.zip: only .apk and .ipa files can be uploaded\n");
    const noKey = await runCli(["upload", apk], { env: { HANGAR_URL: fake.url } });
    expect(noKey.stderr.trimEnd().split("\n")).toHaveLength(1);
    const bogus = await runCli(["upload", apk, "--bogus"], { env: env() });
    expect(bogus.stderr).toContain("Usage: hangar upload");
  });

  it("retry lines name the step once (no \"presign presign:\")", async () => {
    fake.script.presign.push({ status: 503, headers: { "Retry-After": "0" }, body: { error: { code: "service_unavailable", message: "busy", requestId: "r9" } } });
    const run = await runCli(["upload", apk], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("hangar: presign 503 service_unavailable: busy (request r9); retry 1/5");
    expect(run.stderr).not.toMatch(/presign presign/);
  });

  it("prints the fields of an upload_mismatch in either shape the service uses", async () => {
    fake.script.complete.push({
      status: 409,
      body: { error: { code: "upload_mismatch", message: "Does not match the presigned upload", requestId: "r", fields: [{ field: "fileSize", message: "differs from the presigned size" }] } },
    });
    const objects = await runCli(["upload", apk, "-q"], { env: env() });
    expect(objects.code).toBe(6);
    expect(objects.stderr).toContain("  fields: fileSize: differs from the presigned size\n");

    fake.script.complete.push({ status: 409, body: { error: { code: "upload_mismatch", message: "Does not match the presigned upload", requestId: "r", fields: ["fileName", "fileType"] } } });
    const names = await runCli(["upload", apk, "-q", "--json"], { env: env() });
    expect(names.code).toBe(6);
    expect(names.stderr).toContain("  fields: fileName; fileType\n");
    expect(JSON.parse(names.stdout)).toMatchObject({ error: { code: "upload_mismatch", fields: ["fileName", "fileType"], exitCode: 6 } });
  });

  it("exits 3 on a wrong secret and never prints the secret, from the environment or the flag", async () => {
    const secret = "sk_super_secret_do_not_print";
    // A careless server echoing the credential: the CLI must still not print it.
    fake.script.presign.push({ status: 401, body: { error: { code: "invalid_credentials", message: `rejected ${secret}`, requestId: "r1" } } });
    const viaEnv = await runCli(["upload", apk, "--json", "--verbose"], { env: { ...env(), HANGAR_CLIENT_SECRET: secret } });
    expect(viaEnv.code).toBe(3);
    expect(viaEnv.stderr).toMatch(/401 invalid_credentials: rejected \*\*\*/);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ error: { code: "invalid_credentials", status: 401, exitCode: 3, requestId: "r1" } });

    fake.script.presign.push({ status: 401, body: { error: { code: "invalid_credentials", message: `rejected ${secret}`, requestId: "r2" } } });
    const viaFlag = await runCli(["upload", apk, `--client-secret=${secret}`], { env: { ...env(), HANGAR_CLIENT_SECRET: undefined } });
    expect(viaFlag.code).toBe(3);
    for (const run of [viaEnv, viaFlag]) expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it("exits 4 when still rate limited after the retries", async () => {
    fake.script.presign.push({ status: 429, headers: { "Retry-After": "0" } }, { status: 429, headers: { "Retry-After": "0" } });
    const run = await runCli(["upload", apk, "--max-retries", "1"], { env: env() });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/presign rate limited; retry 1\/1/);
    expect(count("POST", "/presign")).toBe(2);
  });

  it("exits 5 on server errors after the retries, and 6 on a rejected package", async () => {
    fake.script.complete.push({ status: 500 });
    const server = await runCli(["upload", apk, "--max-retries", "0", "-q"], { env: env() });
    expect(server.code).toBe(5);

    fake.script.complete.push({ status: 422, body: { error: { code: "invalid_package", message: "not an APK", requestId: "r", reason: "not_zip" } } });
    const rejected = await runCli(["upload", apk, "-q", "--json"], { env: env() });
    expect(rejected.code).toBe(6);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ error: { code: "invalid_package", reason: "not_zip", exitCode: 6 } });
  });

  it("stops on Ctrl-C (SIGINT) during the PUT: exit 130, a short line, no complete", async () => {
    fake.script.put.push({ hang: true });
    const run = await runCli(["upload", apk, "--verbose"], {
      env: env(),
      onStderr: signalWhenStderrShows("sending the file to storage", "SIGINT"),
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted while sending the file to storage; the upload was not completed");
    expect(count("POST", "/complete")).toBe(0);
  });
});

describe("hangar upload (bin) on SIGTERM", () => {
  it("exits 143 when a CI runner terminates it mid-request, reporting the step", async () => {
    fake.script.presign.push({ hang: true });
    const run = await runCli(["upload", apk, "--verbose", "--json"], {
      env: env(),
      onStderr: signalWhenStderrShows("requesting an upload address", "SIGTERM"),
    });
    expect(run.code).toBe(143);
    expect(run.stderr).toContain("interrupted while requesting an upload address");
    expect(JSON.parse(run.stdout)).toEqual({ error: { code: "interrupted", message: "Upload aborted", exitCode: 143 } });
    expect(count("PUT", "/storage/")).toBe(0);
  });
});

describe("hangar upload checks the package before sending it", () => {
  it("refuses a 6-byte non-package with complete's code and reason, exit 6, and sends nothing", async () => {
    const six = join(dir, "six.apk");
    writeFileSync(six, "hello!");
    const run = await runCli(["upload", six], { env: env() });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("hangar upload: six.apk: File of 6 bytes is too small to be a ZIP archive (invalid_package: not_a_zip)");
    expect(run.stderr).toContain("nothing was uploaded");
    expect(run.stderr).toContain("--no-verify");
    expect(fake.requests).toEqual([]);

    const json = await runCli(["upload", six, "--json", "-q"], { env: env() });
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: "invalid_package", reason: "not_a_zip", step: "verify", message: "File of 6 bytes is too small to be a ZIP archive", exitCode: 6 },
    });
    expect(fake.requests).toEqual([]);
  });

  it("refuses a ZIP that is not an APK (a renamed archive without a manifest)", async () => {
    const zipApk = join(dir, "renamed.apk");
    await writeBigAssetApk(zipApk, join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk"), 1024);
    // The same archive minus the manifest: rewrite its name in place (same length, so offsets hold).
    const bytes = readFileSync(zipApk);
    const renamed = Buffer.from(bytes.toString("latin1").replaceAll("AndroidManifest.xml", "AndroidManifest.xmk"), "latin1");
    writeFileSync(zipApk, renamed);
    const run = await runCli(["upload", zipApk, "--json", "-q"], { env: env() });
    expect(run.code).toBe(6);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: "invalid_package", reason: "not_an_apk", step: "verify" });
    expect(fake.requests).toEqual([]);
  });

  it("--no-verify sends the file anyway: the service's answer decides", async () => {
    const six = join(dir, "six.apk");
    writeFileSync(six, "hello!");
    const run = await runCli(["upload", six, "--no-verify", "-q"], { env: env() });
    expect(run.code).toBe(0);
    expect(count("POST", "/presign")).toBe(1);
    expect(count("POST", "/complete")).toBe(1);
  });

  it("leaves an unreadable file to the upload's own message (exit 2), as before", async () => {
    const run = await runCli(["upload", join(dir, "missing.apk")], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no such file/);
  });
});
