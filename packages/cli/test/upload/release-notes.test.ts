import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ciContext } from "../../src/commands/upload";
import { FAKE_CLIENT_ID, FAKE_SECRET, startFakeHangar, type FakeHangar } from "./support/fake-hangar";
import { REPO_ROOT, parseGithubOutput, runCli } from "./support/run-cli";

/** --notes, --notes-file and the CI context complete receives, as CI runs the real bin. */

let dir: string;
let apk: string;
let fake: FakeHangar;
const env = () => ({ HANGAR_URL: fake.url, HANGAR_CLIENT_ID: FAKE_CLIENT_ID, HANGAR_CLIENT_SECRET: FAKE_SECRET });
const completeBody = () => fake.requests.filter((r) => r.path.endsWith("/complete")).at(-1)!.body as Record<string, unknown>;

const GITHUB = {
  GITHUB_ACTIONS: "true",
  GITHUB_REF_NAME: "42/merge",
  GITHUB_HEAD_REF: "feature/login",
  GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_REPOSITORY: "example/app",
  GITHUB_RUN_ID: "987",
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hangar-notes-"));
  apk = join(dir, "app.apk");
  // A real APK: `hangar upload` reads the package before sending it.
  copyFileSync(join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk"), apk);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  fake = await startFakeHangar();
});
afterEach(async () => {
  await fake.close();
});

describe("release notes", () => {
  it("--notes sends releaseNotes with complete; the four spec fields stay", async () => {
    const run = await runCli(["upload", apk, "-q", "--notes", "Fixes <the> crash\r\nand more"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(completeBody()).toMatchObject({ fileName: "app.apk", fileType: "application/vnd.android.package-archive", releaseNotes: "Fixes <the> crash\nand more" });
    expect(completeBody()).not.toHaveProperty("branch");
  });

  it("--notes-file reads a UTF-8 file; both flags at once, a missing file or over 5,000 characters are usage errors", async () => {
    const notes = join(dir, "notes.md");
    writeFileSync(notes, "  Première version 🚀\n");
    expect((await runCli(["upload", apk, "-q", "--notes-file", notes], { env: env() })).code).toBe(0);
    expect(completeBody().releaseNotes).toBe("Première version 🚀");
    expect((await runCli(["upload", apk, "--notes", "a", "--notes-file", notes], { env: env() })).code).toBe(2);
    expect((await runCli(["upload", apk, "--notes-file", join(dir, "missing.md")], { env: env() })).code).toBe(2);
    const long = await runCli(["upload", apk, "--notes", "x".repeat(5001)], { env: env() });
    expect(long.code).toBe(2);
    expect(long.stderr).toContain("at most 5000");
  });
});

describe("CI context", () => {
  it("fills branch, commit and run URL from GitHub Actions; --no-ci-context sends none", async () => {
    expect((await runCli(["upload", apk, "-q"], { env: { ...env(), ...GITHUB } })).code).toBe(0);
    expect(completeBody()).toMatchObject({
      branch: "feature/login",
      commit: GITHUB.GITHUB_SHA,
      ciUrl: "https://github.com/example/app/actions/runs/987",
    });
    expect((await runCli(["upload", apk, "-q", "--no-ci-context"], { env: { ...env(), ...GITHUB } })).code).toBe(0);
    for (const field of ["branch", "commit", "ciUrl"]) expect(completeBody()).not.toHaveProperty(field);
  });

  it("reads GitLab CI and Bitrise variables, and nothing outside a CI", () => {
    expect(ciContext({ GITLAB_CI: "true", CI_COMMIT_REF_NAME: "main", CI_COMMIT_SHA: "abc123", CI_JOB_URL: "https://gitlab.example/g/p/-/jobs/5" })).toEqual({
      branch: "main",
      commit: "abc123",
      ciUrl: "https://gitlab.example/g/p/-/jobs/5",
    });
    expect(ciContext({ BITRISE_IO: "true", BITRISE_GIT_BRANCH: "develop", BITRISE_GIT_COMMIT: "fed987", BITRISE_BUILD_URL: "https://app.bitrise.io/build/1" })).toEqual({
      branch: "develop",
      commit: "fed987",
      ciUrl: "https://app.bitrise.io/build/1",
    });
    expect(ciContext({ CI_COMMIT_REF_NAME: "main", GITHUB_SHA: "abc" })).toEqual({});
    // A variable holding a non-http URL or a control character is left out, not sent.
    expect(ciContext({ GITLAB_CI: "true", CI_COMMIT_REF_NAME: "a\nb", CI_JOB_URL: "javascript:alert(1)" })).toEqual({});
  });

  it("--github-output and --json carry qrCodeUrl, and installUrl for iOS builds", async () => {
    const outputFile = join(dir, "out");
    writeFileSync(outputFile, "");
    const run = await runCli(["upload", apk, "--json", "-q"], { env: { ...env(), GITHUB_OUTPUT: outputFile } });
    expect(JSON.parse(run.stdout)).toMatchObject({ qrCodeUrl: `${fake.url}/share/ukfile1/qr.svg` });
    expect(JSON.parse(run.stdout)).not.toHaveProperty("installUrl");
    expect(parseGithubOutput((await import("node:fs")).readFileSync(outputFile, "utf8")).qr_code_url).toBe(`${fake.url}/share/ukfile1/qr.svg`);
  });
});

describe("installLinks", () => {
  it("derives the itms-services link of an iOS build from its share URL", async () => {
    const { installLinks } = await import("../../src/client");
    const base = { message: "", fileId: "f", userKey: "k", downloadUrl: "https://h/download/k", shareUrl: "https://h/share/k" };
    const ios = installLinks({ ...base, metadata: { appName: "A", bundleId: "b", version: "1", platform: "ios" } });
    expect(ios.qrCodeUrl).toBe("https://h/share/k/qr.svg");
    expect(ios.installUrl).toBe("itms-services://?action=download-manifest&url=https%3A%2F%2Fh%2Fshare%2Fk%2Fmanifest.plist");
    expect(installLinks({ ...base, metadata: { appName: "A", bundleId: "b", version: "1", platform: "android" } })).toEqual({ qrCodeUrl: "https://h/share/k/qr.svg" });
  });
});
