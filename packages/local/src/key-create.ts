import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { HangarError } from "@hangar/core";
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mintApiKey } from "./keys/mint-api-key";
import { stackInfoPath, type LocalStackInfo } from "./local-stack";

// The pinned SDK supports Node 20.19+; its notice about future releases is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const USAGE = `Usage: npm run key:create -- --project <name> [--name <key name>] [--email <owner>] [--json]

Creates the project if needed and mints an API key for it. The secret is printed once.
Against the local stack (npm start) it finds the table through <HANGAR_DATA_DIR>/stack.json.
Against a deployed stage set HANGAR_TABLE_NAME and AWS_REGION (and AWS credentials).`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        project: { type: "string" },
        name: { type: "string", default: "default" },
        email: { type: "string", default: "local@hangar.localhost" },
        description: { type: "string", default: "" },
        color: { type: "string", default: "blue" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.project) fail(`--project is required\n\n${USAGE}`);

function target(): { client: DynamoDBClient; tableName: string } {
  const env = process.env;
  if (env.HANGAR_TABLE_NAME && !env.HANGAR_DATA_DIR) {
    return {
      tableName: env.HANGAR_TABLE_NAME,
      client: new DynamoDBClient({
        ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
        ...(env.HANGAR_DYNAMODB_ENDPOINT ? { endpoint: env.HANGAR_DYNAMODB_ENDPOINT } : {}),
      }),
    };
  }
  const infoPath = stackInfoPath(env.HANGAR_DATA_DIR ?? ".hangar");
  if (!existsSync(infoPath)) {
    fail(`No running local stack found (${infoPath} is missing): start it with \`npm start\`, or set HANGAR_TABLE_NAME for a deployed stage.`, 1);
  }
  const info = JSON.parse(readFileSync(infoPath, "utf8")) as LocalStackInfo;
  return {
    tableName: info.tableName,
    client: new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials, maxAttempts: 2 }),
  };
}

const { client, tableName } = target();
const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
try {
  const created = await mintApiKey(db, tableName, {
    email: values.email!,
    projectName: values.project!,
    keyName: values.name!,
    projectDescription: values.description!,
    projectColor: values.color!,
  });
  if (values.json) {
    console.log(JSON.stringify(created));
  } else {
    console.log(`Project:       ${values.project} (${created.projectId})`);
    console.log(`Client ID:     ${created.clientId}`);
    console.log(`Client secret: ${created.clientSecret}`);
    console.log("Copy the secret now: it is stored only as a hash and cannot be shown again.");
  }
} catch (error) {
  const reason = error instanceof HangarError ? error.message : (error as Error).message;
  fail(`Could not create the key: ${reason}`, 1);
} finally {
  client.destroy();
}
