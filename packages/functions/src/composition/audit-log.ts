import { DynamoAuditLog } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The audit log on the shared table: core's AuditLog port for every function whose use cases
 * record what they changed (their deps take it as `audit: auditLog()`), and its AuditLogReader
 * for the audit function. A module of its own, with nothing but the table client behind it, so a
 * function that records entries bundles no more than that.
 */
export const auditLog = once((): DynamoAuditLog => {
  const runtime = getRuntime();
  return new DynamoAuditLog(runtime.db, runtime.settings.HANGAR_TABLE_NAME, () => runtime.clock.now());
});
