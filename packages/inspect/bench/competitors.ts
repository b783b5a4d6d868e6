/**
 * The tools the benchmark runs on the same files: Hangar and npm app-info-parser (what the
 * issue measured against), each on a local file and on the service's path from S3.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { FileRangeReader, inspectPackage } from "../src";
import { S3RangeReader } from "../src/s3";
import type { RandomAccessReader, ReadStats } from "../src";

export interface Outcome {
  appName?: string;
  bundleId?: string;
  version?: string;
  error?: string;
  stats?: ReadStats;
}

export type Tool = "hangar" | "app-info-parser" | "hangar-s3" | "app-info-parser-s3";

export interface Target {
  path: string;
  /** For the -s3 tools: where the bench's range server serves `key`. */
  endpoint?: string;
  key?: string;
  size?: number;
}

async function hangarOn(reader: RandomAccessReader, fileName: string): Promise<Outcome> {
  try {
    const result = await inspectPackage(reader, { fileName });
    return { appName: result.appName, bundleId: result.bundleId, version: result.version, stats: { ...reader.stats } };
  } catch (error) {
    return { error: (error as Error).message, stats: { ...reader.stats } };
  } finally {
    await reader.close();
  }
}

interface AppInfoParserResult {
  CFBundleDisplayName?: string;
  CFBundleName?: string;
  CFBundleExecutable?: string;
  CFBundleIdentifier?: string;
  CFBundleShortVersionString?: string;
  package?: string;
  versionName?: string;
  application?: { label?: unknown };
}

const require = createRequire(import.meta.url);
const AppInfoParser = require("app-info-parser") as new (path: string) => { parse(): Promise<AppInfoParserResult> };

async function appInfoParserOn(path: string): Promise<Outcome> {
  try {
    const r = await new AppInfoParser(path).parse();
    const label = Array.isArray(r.application?.label) ? r.application.label[0] : r.application?.label;
    const outcome: Outcome = {};
    // The same fallback chain Hangar uses, so "same result" compares like with like.
    const appName = r.CFBundleDisplayName ?? r.CFBundleName ?? r.CFBundleExecutable ?? (typeof label === "string" ? label : undefined);
    const bundleId = r.CFBundleIdentifier ?? r.package;
    const version = r.CFBundleShortVersionString ?? r.versionName;
    if (appName !== undefined) outcome.appName = String(appName);
    if (bundleId !== undefined) outcome.bundleId = String(bundleId);
    if (version !== undefined) outcome.version = String(version);
    return outcome;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

let client: S3Client | undefined;
function s3(endpoint: string): S3Client {
  client ??= new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "bench", secretAccessKey: "bench" },
  });
  return client;
}

export async function runTool(tool: Tool, target: Target): Promise<Outcome> {
  const { path } = target;
  switch (tool) {
    case "hangar":
      return hangarOn(await FileRangeReader.open(path), path);
    case "app-info-parser":
      return appInfoParserOn(path);
    case "hangar-s3":
      return hangarOn(
        new S3RangeReader({ client: s3(target.endpoint!), bucket: "bench", key: target.key!, size: target.size! }),
        target.key!,
      );
    case "app-info-parser-s3": {
      // app-info-parser needs a file: what a Lambda would do is download the object to /tmp.
      const dir = await mkdtemp(join(tmpdir(), "hangar-bench-"));
      try {
        const local = join(dir, target.key!);
        const response = await s3(target.endpoint!).send(new GetObjectCommand({ Bucket: "bench", Key: target.key! }));
        await pipeline(response.Body as Readable, createWriteStream(local));
        return await appInfoParserOn(local);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
}
