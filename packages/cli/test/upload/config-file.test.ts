import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runUpload } from "../../src/commands/upload";
import { REPO_ROOT } from "./support/run-cli";
import { FAKE_CLIENT_ID, FAKE_SECRET, startFakeHangar, type FakeHangar } from "./support/fake-hangar";

/** `--config <file>` / HANGAR_CONFIG: credentials from a file instead of the shell. */

let dir: string;
let apk: string;
let fake: FakeHangar;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hangar-config-"));
  apk = join(dir, "app.apk");
  // A real APK: `hangar upload` reads the package before sending it.
  copyFileSync(join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk"), apk);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  fake = await startFakeHangar();
});
afterEach(() => fake.close());

async function upload(args: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runUpload(["upload", apk, ...args].slice(1), {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
    signal: new AbortController().signal,
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}

function configFile(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const authOf = () => fake.requests.find((r) => r.path.includes("/presign"))?.headers;

describe("hangar upload --config", () => {
  it("reads a dotenv file (export, quotes, comments) and uploads with its credentials", async () => {
    const path = configFile(
      "hangar.env",
      `# Hangar\nexport HANGAR_URL=${fake.url}\nHANGAR_CLIENT_ID='${FAKE_CLIENT_ID}'\nHANGAR_CLIENT_SECRET="${FAKE_SECRET}" # from the vault\nOTHER_TOOL=ignored\n`,
    );
    const run = await upload(["--config", path, "-q"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Share:     ${fake.url}/share/`);
    expect(authOf()?.["x-client-id"]).toBe(FAKE_CLIENT_ID);
    expect(authOf()?.authorization).toBe(`Bearer ${FAKE_SECRET}`);
  });

  it("reads a JSON file named by HANGAR_CONFIG; the environment wins over the file, flags over both", async () => {
    const path = configFile("hangar.json", JSON.stringify({ url: "http://127.0.0.1:9/unused", clientId: FAKE_CLIENT_ID, clientSecret: FAKE_SECRET }));
    const run = await upload(["-q", "--json"], { HANGAR_CONFIG: path, HANGAR_URL: fake.url });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).shareUrl).toBe(`${fake.url}/share/ukfile1`);

    const flagged = await upload(["-q", "--config", path, "--url", fake.url, "--client-id", "hk_wrong"], { HANGAR_CLIENT_ID: "hk_other" });
    expect(flagged.code).toBe(3);
  });

  it("warns when the file is readable by group or others, and still uploads", async () => {
    const path = configFile("shared.env", `HANGAR_URL=${fake.url}\nHANGAR_CLIENT_ID=${FAKE_CLIENT_ID}\nHANGAR_CLIENT_SECRET=${FAKE_SECRET}\n`, 0o644);
    const run = await upload(["--config", path, "-q"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`hangar: warning: ${path} can be read by other users (mode 644); run: chmod 600 ${path}\n`);
  });

  it("never prints the file's secret, even with --verbose and a server that echoes it", async () => {
    const secret = "sk_from_file_never_printed_42";
    const path = configFile("secret.json", JSON.stringify({ HANGAR_URL: fake.url, HANGAR_CLIENT_ID: FAKE_CLIENT_ID, HANGAR_CLIENT_SECRET: secret }), 0o640);
    fake.script.presign.push({ status: 401, body: { error: { code: "invalid_credentials", message: `bad secret ${secret}`, requestId: "r1" } } });
    const run = await upload(["--config", path, "--verbose", "--json"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`hangar: config ${path}: HANGAR_URL, HANGAR_CLIENT_ID, HANGAR_CLIENT_SECRET`);
    expect(run.stderr).toContain("bad secret ***");
    expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it("a broken, missing or oversized file is a usage error that quotes no content", async () => {
    const secret = "sk_in_a_broken_file_77";
    const cases: [string, RegExp][] = [
      [configFile("broken.json", `{"clientSecret": "${secret}",}`), /is not valid JSON/],
      [configFile("array.json", "[1]"), /must hold a JSON object/],
      [configFile("typed.json", `{"clientId": 12}`), /"clientId" must be a string/],
      [configFile("broken.env", `HANGAR_URL=${fake.url}\n${secret}\n`), /line 2 is not NAME=value/],
      [configFile("quote.env", `HANGAR_CLIENT_SECRET="${secret}\n`), /line 1 has an unclosed quote/],
      [configFile("big.env", `# ${"x".repeat(70 * 1024)}\n`), /larger than 64 KiB/],
      [join(dir, "absent.env"), /no such file/],
      [dir, /not a regular file/],
    ];
    for (const [path, message] of cases) {
      const run = await upload(["--config", path]);
      expect(run.code, path).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split("\n"), path).toHaveLength(1);
      expect(run.stderr).not.toContain(secret);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("names the file when it lacks a setting", async () => {
    const path = configFile("partial.env", `HANGAR_URL=${fake.url}\n`);
    const run = await upload(["--config", path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`missing HANGAR_CLIENT_ID (or --client-id), HANGAR_CLIENT_SECRET (or --client-secret) (not in ${path} either)`);
  });
});
