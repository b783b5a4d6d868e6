import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubOutputs } from "../packages/cli/src/commands/upload";
import { newKey, stack, type Key } from "./support/api";
import { cleanEnv, run, type Run } from "./support/cli-package";
import { REPO_ROOT } from "./support/local-stack-process";

/**
 * Every CI recipe of docs/ci-recipes.md, run as that CI would run it: the shell lines are read
 * from the page's code blocks (YAML literal blocks, Jenkins `sh '''…'''`, fastlane `sh("…")`),
 * run verbatim by bash in a fresh workspace with the CI's own variables, against the local stack.
 * Each fetches the CLI from that stack as written (`npx --yes "$HANGAR_URL/cli/hangar-cli.tgz"`),
 * with an npm cache of its own and npm's registry set to a dead port: a recipe that needed a
 * registry (a package name, a dependency of the tarball) fails here. Then the outputs each recipe
 * hands on (dotenv report, envman, $BASH_ENV, GITHUB_OUTPUT, hangar.json read by Groovy/Ruby) are
 * checked.
 */

const DOC = readFileSync(join(REPO_ROOT, "docs/ci-recipes.md"), "utf8");
const APK = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk");
const IPA = join(REPO_ROOT, "packages/inspect/fixtures/ipa/xml-plist.ipa");

/** Nothing listens on port 9 (discard): any registry request fails at once. */
const DEAD_REGISTRY = "http://127.0.0.1:9/";
/** How every recipe gets the CLI: from the Hangar it uploads to. */
const FETCH_CLI = 'npx --yes "$HANGAR_URL/cli/hangar-cli.tgz" upload';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hangar-recipes-"));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The code block after `<!-- recipe: name -->` in docs/ci-recipes.md. */
function recipe(name: string): { lang: string; code: string } {
  const match = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`(\\w+)\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match) throw new Error(`docs/ci-recipes.md has no recipe "${name}"`);
  return { lang: match[1]!, code: match[2]! };
}

/** YAML literal block scalars (`key: |`, `- |`, `|-`): their text is exactly what the CI runs. */
function literalBlocks(yaml: string): string[] {
  const lines = yaml.split("\n");
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*(?:- )?(?:[\w-]+:\s*)?\|[-+]?\s*$/.test(lines[i]!)) continue;
    const ownIndent = /^\s*/.exec(lines[i]!)![0].length;
    const body: string[] = [];
    let indent = -1;
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      const lineIndent = /^\s*/.exec(line)![0].length;
      if (line.trim() !== "") {
        if (indent < 0) indent = lineIndent;
        if (lineIndent < indent || lineIndent <= ownIndent) break;
      }
      body.push(line.slice(Math.max(indent, 0)));
    }
    i--;
    blocks.push(body.join("\n").trimEnd());
  }
  return blocks;
}

interface Workspace {
  dir: string;
  key: Key;
  env: Record<string, string | undefined>;
}

/** A fresh workspace, key and npm cache (nothing cached from another recipe); no registry. */
function workspace(name: string, key: Key, ciEnv: (dir: string) => Record<string, string>): Workspace {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const env = cleanEnv(join(root, `${name}-npm-cache`), {
    npm_config_registry: DEAD_REGISTRY,
    HANGAR_URL: stack().baseUrl,
    HANGAR_CLIENT_ID: key.clientId,
    HANGAR_CLIENT_SECRET: key.clientSecret,
    ...ciEnv(dir),
  });
  return { dir, key, env };
}

function place(source: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
}

/** Runs each script as its own `bash -eo pipefail` (as CircleCI and GitLab do), stopping at the first failure. */
async function runScripts(ws: Workspace, scripts: string[], cwd = ws.dir): Promise<Run[]> {
  const runs: Run[] = [];
  for (const script of scripts) {
    const result = await run("bash", ["-eo", "pipefail", "-c", script], { cwd, env: ws.env, timeoutMs: 120_000 });
    runs.push(result);
    if (result.code !== 0) throw new Error(`recipe script failed (${result.code}):\n${script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return runs;
}

/** Nothing a recipe printed or wrote holds the secret. */
function expectNoSecret(ws: Workspace, runs: Run[]): void {
  for (const r of runs) expect(r.stdout + r.stderr).not.toContain(ws.key.clientSecret);
  for (const file of readdirSync(ws.dir, { recursive: true }) as string[]) {
    const path = join(ws.dir, file);
    if (file.includes("node_modules") || file.includes(".npm") || !existsSync(path) || !/\.(json|env|txt)$|output$/.test(file)) continue;
    expect(readFileSync(path, "utf8"), file).not.toContain(ws.key.clientSecret);
  }
}

/** `a.b.c` of a JSON value. */
const at = (value: unknown, path: string[]): unknown => path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);

const sharePattern = () => new RegExp(`^${stack().baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/share/[A-Za-z0-9_-]+$`);

function parseDotenv(text: string): Record<string, string> {
  return Object.fromEntries(text.trim().split("\n").map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
}

describe("docs/ci-recipes.md, run", () => {
  it("every recipe fetches the CLI from the service, none from a registry", () => {
    for (const name of ["github", "gitlab", "bitrise", "circleci", "jenkins", "fastlane", "shell"]) {
      const { code } = recipe(name);
      expect(code.replace(/\\"/g, '"'), name).toContain(FETCH_CLI);
    }
    expect(DOC).not.toMatch(/(?:npx|install)[^\n`]*\bhangar-cli@/);
  });

  it("GitLab CI: the job script uploads and writes the dotenv report later jobs read", async () => {
    const { lang, code } = recipe("gitlab");
    expect(lang).toBe("yaml");
    const ws = workspace("gitlab", await newKey(), (dir) => ({
      CI: "true",
      GITLAB_CI: "true",
      CI_PROJECT_DIR: dir,
      CI_JOB_ID: "4711",
      CI_COMMIT_SHA: "0123456789abcdef0123456789abcdef01234567",
      CI_PIPELINE_SOURCE: "push",
    }));
    place(APK, join(ws.dir, "build/app-release.apk"));
    const runs = await runScripts(ws, literalBlocks(code));
    expect(code).toContain("dotenv: hangar.env");
    const report = parseDotenv(readFileSync(join(ws.dir, "hangar.env"), "utf8"));
    expect(report.HANGAR_SHARE_URL).toMatch(sharePattern());
    expect(report.HANGAR_DOWNLOAD_URL).toMatch(/\/download\//);
    expect(report.HANGAR_VERSION).toBe("1.0.4 [BETA]");
    expectNoSecret(ws, runs);
    // README.md shows the same job: its script must be the one run here.
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const readmeGitlab = /\*\*GitLab CI\*\*[\s\S]*?```yaml\n([\s\S]*?)\n```/.exec(readme);
    expect(literalBlocks(readmeGitlab![1]!)).toEqual(literalBlocks(code));
  });

  it("Bitrise: the Script step uploads $BITRISE_APK_PATH and exports the links with envman", async () => {
    const { lang, code } = recipe("bitrise");
    expect(lang).toBe("yaml");
    const ws = workspace("bitrise", await newKey(), (dir) => ({
      CI: "true",
      BITRISE_IO: "true",
      BITRISE_BUILD_NUMBER: "42",
      BITRISE_SOURCE_DIR: dir,
      BITRISE_DEPLOY_DIR: join(dir, "deploy"),
      BITRISE_APK_PATH: join(dir, "deploy/app-release.apk"),
      HANGAR_TEST_ENVMAN_STORE: join(dir, "envman.env"),
    }));
    place(APK, join(ws.dir, "deploy/app-release.apk"));
    // Bitrise's envman, reduced to what the recipe uses: `envman add --key K --value V`.
    const bin = join(root, "bitrise-bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, "envman"),
      '#!/usr/bin/env bash\nset -eu\n[ "$1" = add ] || exit 2\nshift\nwhile [ $# -gt 0 ]; do case "$1" in --key) k=$2; shift 2;; --value) v=$2; shift 2;; *) exit 2;; esac; done\nprintf "%s=%s\\n" "$k" "$v" >> "$HANGAR_TEST_ENVMAN_STORE"\n',
    );
    chmodSync(join(bin, "envman"), 0o755);
    ws.env.PATH = `${bin}:${ws.env.PATH}`;
    const scripts = literalBlocks(code);
    expect(scripts).toHaveLength(1);
    const runs = await runScripts(ws, scripts);
    const exported = parseDotenv(readFileSync(join(ws.dir, "envman.env"), "utf8"));
    expect(exported.HANGAR_SHARE_URL).toMatch(sharePattern());
    expect(exported.HANGAR_VERSION).toBe("1.0.4 [BETA]");
    expectNoSecret(ws, runs);
  });

  it("CircleCI: one run step uploads and exports through $BASH_ENV, the next step sees the link", async () => {
    const { lang, code } = recipe("circleci");
    expect(lang).toBe("yaml");
    const ws = workspace("circleci", await newKey(), (dir) => ({
      CI: "true",
      CIRCLECI: "true",
      CIRCLE_BUILD_NUM: "7",
      CIRCLE_WORKING_DIRECTORY: dir,
      BASH_ENV: join(dir, ".circleci-bash-env"),
    }));
    writeFileSync(join(ws.dir, ".circleci-bash-env"), "");
    place(APK, join(ws.dir, "app/build/outputs/apk/release/app-release.apk"));
    const scripts = literalBlocks(code);
    expect(scripts).toHaveLength(2);
    const runs = await runScripts(ws, scripts);
    expect(runs[1]!.stdout.trim()).toMatch(new RegExp(`^Hangar: ${sharePattern().source.slice(1)}`));
    expectNoSecret(ws, runs);
  });

  it("Jenkins: the sh step uploads, and every field the pipeline reads from hangar.json is there", async () => {
    const { lang, code } = recipe("jenkins");
    expect(lang).toBe("groovy");
    const ws = workspace("jenkins", await newKey(), (dir) => ({
      JENKINS_URL: "http://127.0.0.1:1/",
      BUILD_NUMBER: "12",
      BUILD_ID: "12",
      JOB_NAME: "app/main",
      WORKSPACE: dir,
      NODE_NAME: "built-in",
    }));
    place(APK, join(ws.dir, "app/build/outputs/apk/release/app-release.apk"));
    const scripts = [...code.matchAll(/sh '''\n([\s\S]*?)'''/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const runs = await runScripts(ws, scripts);
    const answer = JSON.parse(readFileSync(join(ws.dir, "hangar.json"), "utf8"));
    // What the Groovy interpolates from `def hangar = readJSON …`: ${hangar.a.b}.
    const read = [...code.matchAll(/\$\{hangar\.([\w.]+)\}/g)].map((m) => m[1]!.split("."));
    expect(read.map((p) => p.join("."))).toEqual(["metadata.version", "shareUrl"]);
    for (const path of read) expect(typeof at(answer, path), path.join(".")).toBe("string");
    expect(answer.shareUrl).toMatch(sharePattern());
    expectNoSecret(ws, runs);
  });

  it("fastlane: the lane's sh command uploads an IPA, and the fields the lane reads back are there", async () => {
    const { lang, code } = recipe("fastlane");
    expect(lang).toBe("ruby");
    const ws = workspace("fastlane", await newKey(), (dir) => ({
      FASTLANE_LANE_NAME: "hangar",
      FASTLANE_SKIP_UPDATE_CHECK: "1",
      // What the lane's first line sets from lane_context (gym's IPA_OUTPUT_PATH here).
      HANGAR_FILE: join(dir, "build/App.ipa"),
    }));
    place(IPA, join(ws.dir, "build/App.ipa"));
    // fastlane runs `sh` and the lane's Ruby in the fastlane/ folder.
    const lane = join(ws.dir, "fastlane");
    mkdirSync(lane);
    const commands = [...code.matchAll(/\bsh\("((?:[^"\\]|\\.)*)"\)/g)].map((m) => m[1]!.replace(/\\(.)/g, "$1"));
    expect(commands).toHaveLength(1);
    expect(code).toContain('ENV["HANGAR_FILE"] =');
    const runs = await runScripts(ws, commands, lane);
    expect(code).toContain('JSON.parse(File.read("hangar.json"))');
    const answer = JSON.parse(readFileSync(join(lane, "hangar.json"), "utf8"));
    const read = [...code.matchAll(/\bhangar((?:\["\w+"\])+)/g)].map((m) => [...m[1]!.matchAll(/"(\w+)"/g)].map((k) => k[1]!));
    expect(read.length).toBeGreaterThanOrEqual(2);
    for (const path of read) expect(typeof at(answer, path), path.join(".")).toBe("string");
    expect(answer.metadata).toMatchObject({ appName: "Demo App", version: "1.4.2" });
    expectNoSecret(ws, runs);
  });

  it("plain shell: both lines run as written, the second prints just the share link", async () => {
    const { lang, code } = recipe("shell");
    expect(lang).toBe("sh");
    const ws = workspace("shell", await newKey(), () => ({}));
    place(IPA, join(ws.dir, "build/App.ipa"));
    const lines = code.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(2);
    const runs = await runScripts(ws, lines);
    expect(runs[0]!.stdout).toMatch(/Share: +http/);
    expect(runs[1]!.stdout.trim()).toMatch(sharePattern());
    expectNoSecret(ws, runs);
  });

  it("GitHub Actions without the action: the run step writes the step outputs", async () => {
    const { code } = recipe("github");
    const ws = workspace("github", await newKey(), (dir) => ({
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: join(dir, "github-output"),
      RUNNER_OS: "Linux",
    }));
    place(IPA, join(ws.dir, "build/App.ipa"));
    const runs = await runScripts(ws, literalBlocks(code));
    const outputs = readFileSync(join(ws.dir, "github-output"), "utf8");
    expect(outputs).toMatch(/^share_url<<ghadelimiter_[0-9a-f]+\nhttp:\/\/127\.0\.0\.1:\d+\/share\/\S+\n/);
    expect(outputs).toMatch(/\nversion<<(\S+)\n1\.4\.2\n\1\n/);
    expectNoSecret(ws, runs);
  });
});

/** The `inputs:` or `outputs:` of action.yml: name → its `description` and `value` lines. */
function actionSection(action: string, section: "inputs" | "outputs"): Map<string, { description: string; value?: string }> {
  const body = new RegExp(`^${section}:\\n((?:  .*\\n|\\n)*)`, "m").exec(action)![1]!;
  const entries = new Map<string, { description: string; value?: string }>();
  for (const m of body.matchAll(/^ {2}([\w-]+):\n((?: {4}.*\n)*)/gm)) {
    const field = (name: string) => new RegExp(`^    ${name}: (.*)$`, "m").exec(m[2]!)?.[1];
    entries.set(m[1]!, { description: field("description") ?? "", ...(field("value") ? { value: field("value")! } : {}) });
  }
  return entries;
}

describe("action.yml", () => {
  const action = readFileSync(join(REPO_ROOT, "action.yml"), "utf8");

  it("declares every output the CLI writes to GITHUB_OUTPUT, each read from the upload step", () => {
    const written = Object.keys(
      githubOutputs({
        message: "Upload completed",
        fileId: "f",
        userKey: "k",
        shareUrl: "s",
        downloadUrl: "d",
        qrCodeUrl: "q",
        installUrl: "i",
        metadata: { appName: "a", bundleId: "b", version: "v" },
        timings: { presignMs: 0, putMs: 0, completeMs: 0, totalMs: 0 },
      }),
    );
    expect(written).toContain("qr_code_url");
    expect(written).toContain("install_url");
    const outputs = actionSection(action, "outputs");
    expect([...outputs.keys()].sort()).toEqual(written.map((name) => name.replace(/_/g, "-")).sort());
    for (const name of written) {
      expect(outputs.get(name.replace(/_/g, "-"))!.value).toBe(`\${{ steps.upload.outputs.${name} }}`);
    }
    // docs/ci-recipes.md lists the same outputs.
    for (const name of outputs.keys()) expect(DOC, name).toContain(`\`${name}\``);
  });

  it("has the inputs docs/ci-recipes.md lists, described alike, and the URL is the stage's public Url", () => {
    const inputs = actionSection(action, "inputs");
    const table = /\| Input \| Required \| Default \| \|\n\|[-|]+\|\n((?:\|.*\|\n)+)/.exec(DOC)![1]!;
    const documented = new Map(
      table
        .trim()
        .split("\n")
        .map((row) => row.split("|").map((cell) => cell.trim()))
        .map((cells) => [cells[1]!.replace(/`/g, ""), cells[4]!] as const),
    );
    expect([...inputs.keys()].sort()).toEqual([...documented.keys()].sort());
    expect(inputs.has("notes") && inputs.has("notes-file")).toBe(true);
    expect(inputs.get("url")!.description).toMatch(/public Url/);
    expect(inputs.get("url")!.description).toMatch(/not ApiUrl/);
    expect(documented.get("url")).toMatch(/public `Url` \(not `ApiUrl`\)/);
    // The flag each optional input maps to is named in both places.
    for (const [name, flag] of [["notes", "--notes"], ["notes-file", "--notes-file"], ["groups", "--groups"], ["testers", "--testers"], ["message", "--message"]] as const) {
      expect(inputs.get(name)!.description).toContain(flag);
      expect(documented.get(name)).toContain(flag);
    }
  });

  it("fetches the CLI from the service with no registry, passes the notes, and sets the step outputs", async () => {
    expect(action).not.toMatch(/npm (ci|install)/);
    const script = literalBlocks(action).find((block) => block.includes("hangar-cli.tgz"));
    expect(script).toContain('npx --yes "${HANGAR_URL%/}/cli/hangar-cli.tgz"');
    const ws = workspace("action", await newKey(), (dir) => ({
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: REPO_ROOT,
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: join(dir, "github-output"),
      INPUT_FILE: "app-release.apk",
      INPUT_NAME: "",
      INPUT_NOTES: "",
      INPUT_NOTES_FILE: "notes.md",
      INPUT_MAX_RETRIES: "5",
      INPUT_TIMEOUT: "600",
    }));
    place(APK, join(ws.dir, "app-release.apk"));
    writeFileSync(join(ws.dir, "notes.md"), "Fixes the login crash.\n");
    const runs = await runScripts(ws, [script!]);
    expect(runs[0]!.stdout).toContain("Bundle ID: com.hangar.literal");
    const outputs = readFileSync(join(ws.dir, "github-output"), "utf8");
    expect(outputs).toMatch(/\nbundle_id<<(\S+)\ncom\.hangar\.literal\n\1\n/);
    expect(outputs).toMatch(/\nqr_code_url<<(\S+)\nhttp:\/\/127\.0\.0\.1:\d+\/share\/\S+\/qr\.svg\n\1\n/);
    const shareUrl = /^share_url<<(\S+)\n(.*)\n\1$/m.exec(outputs)![2]!;
    expect(await (await fetch(shareUrl)).text()).toContain("Fixes the login crash.");
    expectNoSecret(ws, runs);
  });
});
