import { FileRangeReader, inspectPackage, type InspectResult } from "@hangar/inspect";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./local-stack-process";

const FIXTURES = join(REPO_ROOT, "packages/inspect/fixtures");

/** Committed fixture packages (built by the scripts in packages/inspect/fixtures). */
export function fixtures(kind: "apk" | "ipa"): string[] {
  return readdirSync(join(FIXTURES, kind))
    .filter((f) => f.endsWith(`.${kind}`))
    .sort()
    .map((f) => join(FIXTURES, kind, f));
}

/** What the extractor reads from the file on disk: what complete must answer from S3. */
export async function inspectFile(path: string): Promise<InspectResult> {
  const reader = await FileRangeReader.open(path);
  try {
    return await inspectPackage(reader, { fileName: path });
  } finally {
    await reader.close();
  }
}
