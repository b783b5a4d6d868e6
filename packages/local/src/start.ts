import { rmSync } from "node:fs";
import { JavaMissingError } from "./dynamodb/dynamodb-local";
import { stackInfoPath, startLocalStack } from "./local-stack";

/**
 * `npm start`: the whole service on one machine, no AWS account. Settings come from the same
 * HANGAR_* variables as on Lambda (see README), plus PORT, HOST and HANGAR_DATA_DIR.
 */
// The pinned SDK supports Node 20.19+; its notice about future releases is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const env = process.env;
const dataDir = env.HANGAR_DATA_DIR ?? ".hangar";
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? "127.0.0.1";
const optionalPort = (v: string | undefined) => (v ? Number(v) : undefined);

try {
  const s3Port = optionalPort(env.HANGAR_S3_PORT);
  const dynamoPort = optionalPort(env.HANGAR_DYNAMODB_PORT);
  const stack = await startLocalStack({
    dataDir,
    host,
    port,
    // Tests and benchmarks: writes skip SQLite on disk; nothing survives a restart.
    dynamoInMemory: env.HANGAR_DYNAMODB_IN_MEMORY === "1",
    ...(s3Port !== undefined ? { s3Port } : {}),
    ...(dynamoPort !== undefined ? { dynamoPort } : {}),
  });
  const { info } = stack;
  console.log(`Hangar local stack (data in ${dataDir}/)`);
  console.log(`  object store:   ${info.s3Endpoint}  (bucket ${info.bucketName}, SigV4 enforced)`);
  console.log(`  DynamoDB Local: ${info.dynamoEndpoint}  (table ${info.tableName})`);
  console.log(`  mint a key:     npm run key:create -- --project demo --json`);
  console.log(`Hangar is running at ${info.baseUrl}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    rmSync(stackInfoPath(dataDir), { force: true });
    await stack.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  const inUse = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
  if (error instanceof JavaMissingError) console.error(`Cannot start: ${error.message}`);
  else if (inUse) {
    const { port: busy } = error as NodeJS.ErrnoException & { port?: number };
    console.error(
      `Cannot start: port ${busy ?? port} is in use (the API takes PORT, the store PORT+1, DynamoDB Local PORT+2). ` +
        "Stop the other process or choose another, e.g. PORT=3100 npm start (PORT=0 picks free ports).",
    );
  } else console.error("Cannot start the local stack:", error);
  process.exit(1);
}
