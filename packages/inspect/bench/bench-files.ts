/** Builds (once, then reuses) the large packages the benchmark runs on, under .tmp/bench/. */
import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { noiseBlock, writeBigAssetApk, writeBigAssetIpa, writeManyEntryIpa, writeSignedApk } from "../fixtures/large-fixtures";
import { runTool } from "./competitors";

export interface BenchFile {
  label: string;
  path: string;
  /** Part of a size series whose peak memory should stay flat. */
  series?: "ipa" | "apk";
}

const MB = 1024 * 1024;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function committedFixtures(root: string): Promise<BenchFile[]> {
  const files: BenchFile[] = [];
  for (const sub of ["ipa", "apk"]) {
    // Recursive: apk/signing/ holds the APKs apksigner signed.
    const names = (await readdir(join(root, sub), { recursive: true }).catch(() => [] as string[])) as string[];
    for (const name of names.sort()) {
      if (/\.(ipa|apk)$/.test(name)) files.push({ label: `${sub}/${name}`, path: join(root, sub, name) });
    }
  }
  return files;
}

/**
 * An ordinary APK to pad into large APKs. The APK fixtures include hostile ones, some of which
 * send app-info-parser into an endless loop, so only plain aapt-built ones qualify.
 */
async function baseApk(fixtures: BenchFile[]): Promise<string | undefined> {
  const candidates = fixtures.filter((f) => /\/aapt\d?-[^/]*\.apk$/.test(f.label) && !f.label.includes("split"));
  candidates.sort((a, b) => Number(b.label.includes("adaptive-icon")) - Number(a.label.includes("adaptive-icon")));
  for (const file of candidates) {
    if (!(await runTool("hangar", { path: file.path })).error) return file.path;
  }
  return undefined;
}

export async function generatedFiles(dir: string, fixtures: BenchFile[], large: boolean): Promise<{ files: BenchFile[]; notes: string[] }> {
  await mkdir(dir, { recursive: true });
  const notes: string[] = [];
  const block = noiseBlock();
  const sizes = [1, 30, 300, ...(large ? [1024] : [])];
  const files: BenchFile[] = [];
  for (const size of sizes) {
    const path = join(dir, `app-${size}mb.ipa`);
    if (!(await exists(path))) await writeBigAssetIpa(path, size * MB, { block });
    files.push({ label: `generated ${size} MB IPA`, path, series: "ipa" });
  }
  const manyPath = join(dir, "zip64-70000-entries.ipa");
  if (!(await exists(manyPath))) await writeManyEntryIpa(manyPath, 70_000);
  files.push({ label: "generated ZIP64 70,000-entry IPA", path: manyPath });

  const base = await baseApk(fixtures);
  if (base === undefined) {
    notes.push("No committed APK that both tools read: APK rows skipped.");
  } else {
    for (const size of sizes) {
      const path = join(dir, `app-${size}mb.apk`);
      if (!(await exists(path))) await writeBigAssetApk(path, base, size * MB, { block });
      files.push({ label: `generated ${size} MB APK`, path, series: "apk" });
    }
    notes.push(`Large APKs are ${base.split("/").pop()} plus one stored asset.`);
    // 300 MB, like the largest unsigned one: at 30 MB the ≥10× S3 target sits within this shared
    // machine's noise (a 30 MB download takes ~100 ms locally, Hangar's reads ~10-30 ms).
    const signedPath = join(dir, "app-300mb-signed-2000-entries.apk");
    try {
      if (!(await exists(signedPath))) await writeSignedApk(signedPath, base, 300 * MB, { smallAssets: 2000, block });
      files.push({ label: "generated 300 MB APK, apksigner-signed, 2,000 entries", path: signedPath });
      notes.push("The signed APK's central directory is larger than the 64 KiB tail read: its APK Signing Block is a ranged read of its own.");
    } catch (error) {
      notes.push(`No signed large APK (needs apksigner and keytool): ${(error as Error).message.split("\n")[0]}`);
    }
  }
  return { files, notes };
}
