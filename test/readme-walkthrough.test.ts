import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stack } from "./support/api";
import { REPO_ROOT } from "./support/local-stack-process";

/**
 * The README's curl walk-through, run as written against the running stack, so the document
 * cannot drift from the service. Only its first line (BASE, the default port) is changed.
 */
const HEADING = "### Walk through an upload with curl";
const WRITTEN = ["key.json", "presign.json", "complete.json", "demo-copy.apk"];

function walkThrough(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(HEADING));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (readme.indexOf(HEADING) < 0 || !block) throw new Error(`README.md has no \`\`\`sh block under "${HEADING}"`);
  return block[1]!;
}

const scratch = mkdtempSync(join(tmpdir(), "hangar-readme-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("README walk-through", () => {
  it("uploads, completes and downloads the same bytes, writing its files to a temporary folder", () => {
    const script = walkThrough();
    const [first, ...rest] = script.split("\n");
    expect(first).toBe("BASE=http://127.0.0.1:3000");
    const before = WRITTEN.filter((f) => existsSync(join(REPO_ROOT, f)));

    const run = spawnSync("bash", ["-e", "-c", [`BASE=${stack().baseUrl}`, ...rest].join("\n")], {
      cwd: REPO_ROOT,
      // key:create finds this stack through its data directory; mktemp -d creates under TMPDIR.
      env: { ...process.env, HANGAR_DATA_DIR: stack().dataDir, TMPDIR: scratch },
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/"uploadUrl":"http/);
    expect(run.stdout).toMatch(/^200$/m); // the PUT
    expect(run.stdout).toMatch(/"userKey":"/);
    expect(run.stdout).toMatch(/<html/i); // the share page
    expect(run.stdout).toContain("downloaded the same bytes");

    // Nothing written into the repository (key.json holds a secret); all of it in the mktemp folder.
    expect(WRITTEN.filter((f) => existsSync(join(REPO_ROOT, f)))).toEqual(before);
    // (Other tools may use TMPDIR too: look for the folder holding key.json.)
    const folder = readdirSync(scratch).find((d) => existsSync(join(scratch, d, "key.json")));
    expect(readdirSync(join(scratch, folder!)).sort()).toEqual([...WRITTEN].sort());
  }, 300_000);

  it("the names it writes are git-ignored in case someone runs it without the temporary folder", () => {
    const ignored = spawnSync("git", ["check-ignore", ...WRITTEN], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(ignored.stdout.trim().split("\n").sort()).toEqual([...WRITTEN].sort());
  });
});
