import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { systemClock, type ExpiryRunDeps, type WatchedProject } from "@hangar/core";
import { UNSUBSCRIBE_SECRET } from "@hangar/core/distribution";
import {
  DynamoExpiryWarnings,
  DynamoFileCatalog,
  DynamoMailSuppressions,
  DynamoStageSecret,
  DynamoUserRepository,
  DynamoWorkspaceCatalog,
} from "@hangar/core/dynamo";
import { SmtpMailer } from "@hangar/core/mail-smtp";
import { mailsTo } from "./accounts";
import { db, stack } from "./api";

/**
 * Moves a stored build's profile expiry to `expiresAt`, as if it had been signed with a profile
 * that expires then: the committed IPA fixtures' profiles expire in 2036, and a test that reads
 * the real clock (the dashboard's banner) needs one that expires within days. The file record
 * keeps its metadata as JSON text (file-repository.dynamo.ts), rewritten here as a whole.
 */
export async function setProfileExpiry(fileId: string, expiresAt: string): Promise<void> {
  const key = { pk: `FILE#${fileId}`, sk: "FILE" };
  const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: key, ConsistentRead: true }));
  const metadata = JSON.parse(String(Item!.metadata)) as { provisioning: { expiresAt: string } };
  metadata.provisioning.expiresAt = expiresAt;
  await db().send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: key,
      UpdateExpression: "SET metadata = :m",
      ExpressionAttributeValues: { ":m": JSON.stringify(metadata) },
    }),
  );
}

/**
 * The daily run's ports on the local stack's DynamoDB Local and MailDev, the adapters the
 * housekeeping function builds, with one narrowing: its list of projects keeps the given
 * workspaces only (the real Scan underneath), so other tests' members, whose builds carry the same
 * fixture profile, get no mail from a test's run.
 */
export function expiryRunDeps(workspaceIds: string[]): ExpiryRunDeps {
  const s = stack();
  const table = s.tableName;
  const store = new DynamoExpiryWarnings(db(), table);
  const only = {
    async *projects(): AsyncIterable<WatchedProject[]> {
      for await (const page of store.projects()) {
        const mine = page.filter((p) => workspaceIds.includes(p.workspaceId));
        if (mine.length > 0) yield mine;
      }
    },
  };
  return {
    store: Object.assign(Object.create(store) as DynamoExpiryWarnings, only),
    files: new DynamoFileCatalog(db(), table, () => systemClock.now()),
    workspaces: new DynamoWorkspaceCatalog(db(), table),
    users: new DynamoUserRepository(db(), table),
    mailer: new SmtpMailer(`smtp://127.0.0.1:${s.smtpPort}`, "Hangar <hangar@localhost>"),
    suppressions: new DynamoMailSuppressions(db(), table),
    unsubscribeSecret: new DynamoStageSecret(db(), table, UNSUBSCRIBE_SECRET),
    clock: systemClock,
    publicBaseUrl: s.baseUrl,
  };
}

/** The expiry warnings MailDev caught for an address (its sign-up mail left out). */
export const expiryMails = async (address: string, atLeast = 0) => (await mailsTo(address, atLeast)).filter((m) => /expires/.test(m.subject));

