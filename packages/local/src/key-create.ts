import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { HangarError } from "@hangar/core";
import { normalizeEmail } from "@hangar/core/accounts";
import { DynamoUserRepository } from "@hangar/core/dynamo";
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mintApiKey } from "./keys/mint-api-key";
import { stackInfoPath, type LocalStackInfo } from "./local-stack";

/** The owner of projects made without --account: an account nobody can sign in to. */
const DEFAULT_OWNER = "local@hangar.localhost";

// The pinned SDK supports Node 20.19+; its notice about future releases is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const USAGE = `Usage: npm run key:create -- --project <name> [--account <email>] [--name <key name>] [--json]

Creates the project if needed and mints an API key for it. The secret is printed once. The
project (and so the key) is in the owner account's personal workspace; to put it in a team
workspace, create the project there on the dashboard and make its key there.

  --account <email>  the dashboard account (signed up on the dashboard) that owns the project:
                     you see the project and its uploads when you sign in. An error if no
                     account has this address.
  --email <owner>    without --account: the owner's address, made a verified account without a
                     password if it has none (default ${DEFAULT_OWNER}). Nobody can sign in to
                     such an account until its owner sets a password ("Forgot password").

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
        account: { type: "string" },
        email: { type: "string" },
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
if (values.account !== undefined && values.email !== undefined) fail(`give --account or --email, not both\n\n${USAGE}`);

function target(): { client: DynamoDBClient; tableName: string; dashboardUrl?: string } {
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
    dashboardUrl: info.baseUrl,
    client: new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials, maxAttempts: 2 }),
  };
}

const { client, tableName, dashboardUrl } = target();
const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
const users = new DynamoUserRepository(db, tableName);
const dashboard = dashboardUrl ? `the dashboard (${dashboardUrl})` : "the dashboard";
const owner = values.account ?? values.email ?? DEFAULT_OWNER;
try {
  if (values.account !== undefined && !(await users.findByEmail(normalizeEmail(values.account)))) {
    fail(`No dashboard account has the address ${values.account}: sign up on ${dashboard} first (or check the address), then run this again.`, 1);
  }
  const created = await mintApiKey(db, tableName, {
    email: owner,
    projectName: values.project!,
    keyName: values.name!,
    projectDescription: values.description!,
    projectColor: values.color!,
  });
  // Whether anyone can see the project: its owner's account has a password (signed up, or reset).
  const account = await users.findByEmail(normalizeEmail(owner));
  const visible = account?.passwordHash !== undefined;
  const ownerLine = visible
    ? `Account:       ${account!.email} (sign in to ${dashboard} to see the project and its uploads)`
    : `Account:       none. The project belongs to ${normalizeEmail(owner)}, which has no password, so no dashboard account can see it.`;
  const howToSee = visible
    ? []
    : [
        "               To see it on the dashboard: sign up there, then run this again with",
        `               --account <your address> (a new project in your account), or set a password for`,
        `               ${normalizeEmail(owner)} with "Forgot password" on the sign-in page${dashboardUrl ? " (the mail arrives in MailDev)" : ""}.`,
      ];
  if (values.json) {
    console.log(JSON.stringify({ ...created, account: visible ? account!.email : null }));
    if (!visible) console.error([ownerLine, ...howToSee].join("\n"));
  } else {
    console.log(`Project:       ${values.project} (${created.projectId})`);
    console.log(ownerLine);
    for (const line of howToSee) console.log(line);
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
