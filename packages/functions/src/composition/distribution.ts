import { DynamoStageSecret } from "@hangar/core/dynamo";
import {
  DynamoDistributions,
  UNSUBSCRIBE_SECRET,
  type DistributionDeps,
  type MailQueue,
  type UnsubscribeDeps,
} from "@hangar/core/distribution";
import { DynamoTesterGroups } from "@hangar/core/tester-groups";
import { INSTALL_LINK_SECRET } from "@hangar/core/testers";
import { randomBytes } from "node:crypto";
import { auditLog } from "./audit-log";
import { eventPublisher } from "./events";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * What the distribution function and complete (its optional `distribute`) add to the runtime:
 * distributions and recipients on the table, the tester groups, the stage secrets of install
 * links and unsubscribe links, and the build-mail queue.
 */
export const distributionStore = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoDistributions(db, settings.HANGAR_TABLE_NAME);
});

/** The tester groups as distribution reads them (core's TesterGroupDirectory port, tester-groups' adapter). */
export const testerGroups = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoTesterGroups(db, settings.HANGAR_TABLE_NAME);
});

/** The stage secrets of personal install links and of unsubscribe links (each used for nothing else). */
export const distributionSecrets = once(() => {
  const { db, settings } = getRuntime();
  return {
    installLink: new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, INSTALL_LINK_SECRET),
    unsubscribe: new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, UNSUBSCRIBE_SECRET),
  };
});

/**
 * SQS when the stack named a queue (HANGAR_BUILD_MAIL_QUEUE_URL), the in-process queue otherwise
 * (the local stack, whose sender drains it). Each is imported on first use: a request that queues
 * nothing loads no SQS client. No mail code here: the sender is composition/build-mail.ts.
 */
export const buildMailQueue = once((): MailQueue => {
  const { settings } = getRuntime();
  const queue = once(async (): Promise<MailQueue> => {
    if (settings.HANGAR_BUILD_MAIL_QUEUE_URL) {
      const { SqsMailQueue } = await import("../distribution/sqs-mail-queue");
      return new SqsMailQueue(settings.AWS_REGION, settings.HANGAR_BUILD_MAIL_QUEUE_URL);
    }
    return (await import("../distribution/in-process-mail-queue")).inProcessMailQueue;
  });
  return { enqueue: async (jobs) => (await queue()).enqueue(jobs) };
});

export const newDistributionId = () => {
  // dst_ + 16 base62, like the other ids of the contract (random-ids.ts's alphabet).
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "dst_";
  for (const byte of randomBytes(32)) {
    if (byte < 248) out += BASE62[byte % 62];
    if (out.length === 20) break;
  }
  return out.length === 20 ? out : `dst_${randomBytes(12).toString("hex").slice(0, 16)}`;
};

export const distributionDeps = once((): DistributionDeps => {
  const runtime = getRuntime();
  return {
    files: runtime.files,
    projects: runtime.projects,
    workspaces: workspaceCatalog(),
    groups: testerGroups(),
    distributions: distributionStore(),
    queue: buildMailQueue(),
    installLinkSecret: distributionSecrets().installLink,
    buildMailCap: runtime.limits.rule("buildMailPerWorkspace"),
    audit: auditLog(),
    // build.distributed, from the distribute route and from complete's `distribute` alike.
    events: eventPublisher(),
    clock: runtime.clock,
    newDistributionId,
  };
});

export const unsubscribeDeps = once((): UnsubscribeDeps => {
  const runtime = getRuntime();
  return { secret: distributionSecrets().unsubscribe, projects: runtime.projects, distributions: distributionStore(), clock: runtime.clock };
});
