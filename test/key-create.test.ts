import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, browser, dash, signedIn, uniqueEmail } from "./support/accounts";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, stack } from "./support/api";
import { REPO_ROOT } from "./support/local-stack-process";

/**
 * `npm run key:create` (issue 17, item 12): with `--account` the project lands in that dashboard
 * account, and its owner sees it after signing in; without it, the script says plainly that no
 * dashboard account can see the project, and how to change that.
 */

let dataDir: string;

beforeAll(() => {
  // key:create finds a local stack through <HANGAR_DATA_DIR>/stack.json: point it at the shared one.
  dataDir = mkdtempSync(join(tmpdir(), "hangar-key-create-"));
  writeFileSync(join(dataDir, "stack.json"), JSON.stringify(stack()));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * Asynchronous on purpose: a synchronous spawn would block this process's event loop for seconds,
 * and the keep-alive sockets the local server closed meanwhile would be reused as if still open.
 */
function keyCreate(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "packages/local/src/key-create.ts", ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, HANGAR_DATA_DIR: dataDir }, encoding: "utf8" },
      (error, stdout, stderr) => done({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const projectName = () => `kc-${Math.random().toString(36).slice(2, 10)}`;

describe("npm run key:create", () => {
  it("--account <email> creates the project in that dashboard account: its owner sees it and its key", async () => {
    const { b, email } = await signedIn(browser());
    const name = projectName();
    const run = await keyCreate("--project", name, "--account", email.toUpperCase());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Account:       ${email} (sign in to the dashboard (${stack().baseUrl}) to see the project and its uploads)`);
    const clientId = /Client ID:\s+(\S+)/.exec(run.stdout)![1]!;

    const projects = await dash(b, "GET", "/api/projects");
    const project = (projects.json.items as { projectId: string; name: string }[]).find((p) => p.name === name);
    expect(project, projects.text).toBeDefined();
    const keys = await dash(b, "GET", "/api/keys");
    expect(keys.text).toContain(clientId);

    const json = await keyCreate("--project", projectName(), "--account", email, "--json");
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ account: email, clientId: expect.any(String), clientSecret: expect.any(String) });
    expect(json.stderr).toBe("");
  });

  it("--account with an address no one signed up with is an error, and creates nothing", async () => {
    const email = uniqueEmail("nobody");
    const run = await keyCreate("--project", projectName(), "--account", email);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`No dashboard account has the address ${email}: sign up on the dashboard (${stack().baseUrl}) first`);
    // No owner account was made for the address on the way.
    const owner = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
    expect(owner.Item).toBeUndefined();
  });

  it("without --account, says plainly that no dashboard account can see the project, and how to see it", async () => {
    const run = await keyCreate("--project", projectName());
    expect(run.status, run.stderr).toBe(0);
    // And it is true: that owner cannot sign in.
    expect((await dash(browser(), "POST", "/api/session", { email: "local@hangar.localhost", password: PASSWORD })).status).toBe(401);
    expect(run.stdout).toContain("Account:       none. The project belongs to local@hangar.localhost, which has no password, so no dashboard account can see it.");
    expect(run.stdout).toContain("--account <your address>");
    expect(run.stdout).toContain('"Forgot password"');

    const json = await keyCreate("--project", projectName(), "--json");
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ account: null });
    expect(json.stderr).toContain("no dashboard account can see it");
  });

  it("refuses --account together with --email", async () => {
    const run = await keyCreate("--project", projectName(), "--account", "a@hangar.test", "--email", "b@hangar.test");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("give --account or --email, not both");
  });
});
