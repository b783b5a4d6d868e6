import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");

describe("function settings", () => {
  it("are read from the environment in one place: loadSettings() in settings.schema.ts", async () => {
    const readers: string[] = [];
    for (const entry of await readdir(SRC, { recursive: true })) {
      if (!entry.endsWith(".ts")) continue;
      const source = await readFile(path.join(SRC, entry), "utf8");
      // Code only: the schema's comments may name process.env.
      const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
      if (/process\.env\b/.test(code)) readers.push(entry.split(path.sep).join("/"));
    }
    expect(readers).toEqual(["composition/settings.schema.ts"]);
  });

  it("the reaper deletes through the ObjectStore port, with no S3 client of its own", async () => {
    const source = await readFile(path.join(SRC, "housekeeping/reap-expired-uploads.handler.ts"), "utf8");
    expect(source).not.toMatch(/@aws-sdk\//);
    expect(source).toMatch(/reaperDeps\(\)/);
  });
});
