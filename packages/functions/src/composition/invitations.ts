import { defaultInvitationSettings, randomInvitationIds, type InvitationDeps } from "@hangar/core/invitations";
import { DynamoInvitationRepository, DynamoMailSuppressions, DynamoUserRepository, DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { logger } from "../observability/logger";
import { lazyMailer } from "./accounts";
import { auditLog } from "./audit-log";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The invitations function's ports (core's InvitationDeps), built on the shared runtime: the
 * invitations and their tokens, the workspaces and users they point at, the mailer (SMTP or SES,
 * loaded on the first mail) with the suppressed addresses it must skip, the audit log, and the
 * invitations' three rules of the one limiter (core's limits/rate-rules.ts).
 */
export const invitationDeps = once((): InvitationDeps => {
  const { db, settings, clock, limits } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    invitations: new DynamoInvitationRepository(db, table),
    workspaces: new DynamoWorkspaceCatalog(db, table),
    users: new DynamoUserRepository(db, table),
    mailer: lazyMailer(settings),
    suppressions: new DynamoMailSuppressions(db, table),
    // Never the address itself in the log: the members page shows the invitation's mail outcome.
    onMailSuppressed: (mail, suppression) =>
      logger.warn("invitation mail not sent: the address is suppressed", { reason: suppression.reason, since: suppression.since, subjectLength: mail.subject.length }),
    audit: auditLog(),
    limiters: {
      perWorkspace: limits.rule("invitationsPerWorkspace"),
      perInviter: limits.rule("invitationsPerInviter"),
      preview: limits.rule("invitationPreview"),
    },
    clock,
    ids: randomInvitationIds,
    settings: defaultInvitationSettings,
  };
});
