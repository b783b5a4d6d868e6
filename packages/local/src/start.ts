import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { JavaMissingError } from "./dynamodb/dynamodb-local";
import { freeBasePort, startLocalStack, type LocalStack } from "./local-stack";
import { StackLockedError } from "./stack-lock";
import { DashboardBuildError, ensureDashboardBuilt } from "./web/dashboard-build";

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
// HANGAR_WEB_DIR: another dashboard package (tests give one whose build fails).
const WEB_DIR = env.HANGAR_WEB_DIR ? resolve(env.HANGAR_WEB_DIR) : resolve(dirname(fileURLToPath(import.meta.url)), "../../web");

let stack: LocalStack | undefined;
let stopping = false;
/** Stops every service, then exits: 0 when asked to stop, 1 when a service died under us. */
const stop = async (reason: string, code: number) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${reason}: stopping…`);
  await stack?.close();
  process.exit(code);
};
process.on("SIGINT", () => void stop("SIGINT", 0));
process.on("SIGTERM", () => void stop("SIGTERM", 0));

try {
  const dashboardDir = await ensureDashboardBuilt({ webDir: WEB_DIR, log: (line) => console.log(line) });
  stack = await startLocalStack({
    dataDir,
    host,
    port,
    // Tests and benchmarks: writes skip SQLite on disk; nothing survives a restart.
    dynamoInMemory: env.HANGAR_DYNAMODB_IN_MEMORY === "1",
    ...(env.HANGAR_S3_PROXY_URL ? { s3ProxyUrl: env.HANGAR_S3_PROXY_URL } : {}),
    // Tests: a faster resume-deletes sweep than the default minute.
    ...(env.HANGAR_DELETE_SWEEP_SECONDS ? { deleteSweepSeconds: Number(env.HANGAR_DELETE_SWEEP_SECONDS) } : {}),
    ...(env.HANGAR_DAILY_HOUSEKEEPING_SECONDS ? { dailyHousekeepingSeconds: Number(env.HANGAR_DAILY_HOUSEKEEPING_SECONDS) } : {}),
    ...(dashboardDir ? { dashboardDir } : {}),
    ...Object.fromEntries(
      Object.entries({
        s3Port: optionalPort(env.HANGAR_S3_PORT),
        dynamoPort: optionalPort(env.HANGAR_DYNAMODB_PORT),
        mailWebPort: optionalPort(env.HANGAR_MAIL_WEB_PORT),
        smtpPort: optionalPort(env.HANGAR_SMTP_PORT),
      }).filter(([, v]) => v !== undefined),
    ),
    // Never answer 503 forever in silence: a dead database ends the stack, loudly.
    onServiceFailure: (error) => {
      console.error(`Local stack failure: ${error.message}`);
      void stop("a service died", 1);
    },
  });
  const { info } = stack;
  console.log(`Hangar local stack (data in ${dataDir}/)`);
  console.log(`  object store:   ${info.s3Endpoint}  (bucket ${info.bucketName}, SigV4 enforced)`);
  console.log(`  DynamoDB Local: ${info.dynamoEndpoint}  (table ${info.tableName}, loopback only)`);
  console.log(`  SMTP:           127.0.0.1:${info.smtpPort}  (MailDev catches every mail the stack sends)`);
  console.log(`  mint a key:     npm run key:create -- --project demo --json`);
  console.log(`Mail: ${info.mailUrl}`);
  console.log(`Hangar is running at ${info.baseUrl}`);
} catch (error) {
  if (error instanceof JavaMissingError || error instanceof StackLockedError) console.error(`Cannot start: ${error.message}`);
  else if (error instanceof DashboardBuildError) {
    // Nothing is served rather than an old dashboard; the build's own words say what to fix.
    console.error(`Cannot start: ${error.message}. Its output:\n\n${error.output}\n\nFix the error (\`npm run build:web\` runs the same build), then start again.`);
  }
  else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    const { port: busy, service } = error as NodeJS.ErrnoException & { port?: number; service?: string };
    const suggestion = await freeBasePort(host).catch(() => 0);
    console.error(
      `Cannot start: port ${busy ?? port}${service ? ` (${service})` : ""} is in use. The stack takes PORT and the four after it ` +
        "(API PORT, object store +1, DynamoDB Local +2, mail web +3, SMTP +4). Stop the other process or choose another range" +
        (suggestion ? `, e.g. PORT=${suggestion} npm start (free right now)` : "") +
        "; PORT=0 picks free ports.",
    );
  } else console.error("Cannot start the local stack:", error);
  await stack?.close();
  process.exit(1);
}
