import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startStackProcess, type StackProcess } from "./support/local-stack-process";

/**
 * The stack as a newcomer runs it: its own data dir, a key minted with key:create, and a restart
 * that must keep keys and uploads. (This file starts its own stack, twice, on purpose.)
 */
const dataDir = mkdtempSync(join(tmpdir(), "hangar-restart-"));
let running: StackProcess | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function keyCreate(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "packages/local/src/key-create.ts", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, HANGAR_DATA_DIR: dir },
    encoding: "utf8",
  });
}

async function presign(baseUrl: string, key: { clientId: string; clientSecret: string }) {
  const res = await fetch(`${baseUrl}/api/upload/api-key/presign`, {
    method: "POST",
    headers: { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ fileName: "a.ipa", fileSize: 10, fileType: "application/octet-stream" }),
  });
  return { status: res.status, json: (await res.json()) as { fileId: string; key: string } };
}

describe("local stack", () => {
  it("key:create explains that no stack is running", () => {
    const empty = mkdtempSync(join(tmpdir(), "hangar-empty-"));
    const result = keyCreate(empty, "--project", "demo", "--json");
    rmSync(empty, { recursive: true, force: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/npm start/);
    expect(result.stdout).toBe("");
  });

  it("prints its base URL, mints keys with key:create and keeps them across a restart", async () => {
    running = await startStackProcess(dataDir);
    expect(running.output()).toContain(`Hangar is running at ${running.info.baseUrl}`);
    expect(running.output()).toMatch(new RegExp(`^Mail: ${running.info.mailUrl}$`, "m"));
    expect(running.info.mailUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const created = keyCreate(dataDir, "--project", "Restart Demo", "--json");
    expect(created.status, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    // Without --account the project belongs to no dashboard account, and the answer says so.
    expect(Object.keys(key).sort()).toEqual(["account", "clientId", "clientSecret", "projectId"]);
    expect(key.account).toBeNull();

    const second = JSON.parse(keyCreate(dataDir, "--project", "restart demo", "--json").stdout);
    expect(second.projectId).toBe(key.projectId); // same project, found by name
    expect(second.clientId).not.toBe(key.clientId);

    const before = await presign(running.info.baseUrl, key);
    expect(before.status).toBe(200);

    await running.stop();
    running = await startStackProcess(dataDir);
    const after = await presign(running.info.baseUrl, key);
    expect(after.status).toBe(200);
    expect(after.json.fileId).not.toBe(before.json.fileId);
  });
});
