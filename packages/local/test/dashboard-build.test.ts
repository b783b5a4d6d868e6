import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DashboardBuildError, dashboardBuildReason, ensureDashboardBuilt } from "../src/web/dashboard-build";

/**
 * npm start builds the dashboard only when its build is missing or older than its sources, and a
 * failed build stops it with the build's error (never an old dashboard served in silence). A stand-in web package whose `build` script writes
 * index.html (numbered, to tell builds apart) into the --outDir it is given.
 */
const root = mkdtempSync(join(tmpdir(), "hangar-webbuild-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BUILD_SCRIPT = `
const fs = require("node:fs"), path = require("node:path");
const out = process.argv[process.argv.indexOf("--outDir") + 1];
if (fs.existsSync(path.join(__dirname, "FAIL"))) { console.error("type error in src/app.tsx"); process.exit(1); }
const count = Number(fs.existsSync(path.join(__dirname, "count")) ? fs.readFileSync(path.join(__dirname, "count"), "utf8") : 0) + 1;
fs.writeFileSync(path.join(__dirname, "count"), String(count));
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "index.html"), "build " + count);
`;

function webPackage(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `web-${name}`, private: true, scripts: { build: "node build.cjs" } }));
  writeFileSync(join(dir, "build.cjs"), BUILD_SCRIPT);
  writeFileSync(join(dir, "src", "main.tsx"), "export {};\n");
  writeFileSync(join(dir, "index.html"), "<!doctype html>");
  return dir;
}

/** Sets a file's mtime some seconds from now (negative: in the past). */
const touch = (path: string, seconds: number) => {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(path, t, t);
};

describe("dashboard build on npm start", () => {
  it("builds when there is no build, not again while it is fresh, and again when a source changes", async () => {
    const web = webPackage("fresh");
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(dashboardBuildReason(web)).toBe("no build yet");

    expect(await ensureDashboardBuilt({ webDir: web, log })).toBe(join(web, "dist"));
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toBe("build 1");
    expect(lines).toEqual(["Building the dashboard (no build yet)…", "Dashboard built."]);

    // Sources older than the build: nothing to do.
    for (const f of ["src/main.tsx", "index.html", "package.json", "build.cjs"]) touch(join(web, f), -60);
    expect(dashboardBuildReason(web)).toBeUndefined();
    await ensureDashboardBuilt({ webDir: web, log });
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toBe("build 1");

    touch(join(web, "src", "main.tsx"), 60);
    expect(dashboardBuildReason(web)).toBe("sources changed since the last build");
    await ensureDashboardBuilt({ webDir: web, log });
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toBe("build 2");
    // Built aside and swapped in: no scratch folders left behind.
    expect(existsSync(join(web, ".build", `out-${process.pid}`))).toBe(false);
  });

  it("builds again when a workspace package the app bundles changes (core's schemas, the extractor)", async () => {
    // packages/<name> beside packages/web, as in the repository.
    const web = webPackage("workspace/web");
    const extractor = join(root, "workspace", "inspect", "src", "zip.ts");
    mkdirSync(join(root, "workspace", "inspect", "src"), { recursive: true });
    writeFileSync(extractor, "export {};\n");
    touch(extractor, -60);
    const log = () => undefined;
    await ensureDashboardBuilt({ webDir: web, log });
    for (const f of ["src/main.tsx", "index.html", "package.json", "build.cjs"]) touch(join(web, f), -60);
    expect(dashboardBuildReason(web)).toBeUndefined();

    touch(extractor, 60);
    expect(dashboardBuildReason(web)).toBe("sources changed since the last build");
    await ensureDashboardBuilt({ webDir: web, log });
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toBe("build 2");
  });

  it("fails with the build's own error when a build fails, and leaves the previous build as it was", async () => {
    const web = webPackage("failing");
    const log = () => undefined;
    await ensureDashboardBuilt({ webDir: web, log });
    writeFileSync(join(web, "FAIL"), "");
    touch(join(web, "src", "main.tsx"), 60);
    const failure = await ensureDashboardBuilt({ webDir: web, log }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DashboardBuildError);
    expect((failure as DashboardBuildError).message).toBe(`the dashboard build failed (${web}: npm run build)`);
    expect((failure as DashboardBuildError).output).toContain("type error in src/app.tsx");
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toBe("build 1");
    expect(existsSync(join(web, ".build", `out-${process.pid}`))).toBe(false);
    // The next start builds again (the sources are still newer than the build), and once fixed, succeeds.
    rmSync(join(web, "FAIL"));
    expect(await ensureDashboardBuilt({ webDir: web, log })).toBe(join(web, "dist"));
    expect(readFileSync(join(web, "dist", "index.html"), "utf8")).toBe("build 2");
  });

  it("fails when the first build fails; serves nothing (the stack shows its built-in page) without a web package", async () => {
    const web = webPackage("never");
    writeFileSync(join(web, "FAIL"), "");
    await expect(ensureDashboardBuilt({ webDir: web, log: () => undefined })).rejects.toThrow(DashboardBuildError);
    expect(existsSync(join(web, "dist"))).toBe(false);
    expect(await ensureDashboardBuilt({ webDir: join(root, "no-such-package"), log: () => undefined })).toBeUndefined();
  });
});
