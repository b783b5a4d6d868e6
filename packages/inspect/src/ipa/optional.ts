import type { InspectContext } from "../inspect-context";
import { InspectError, messageOf } from "../inspect-result";

/**
 * Runs a step whose failure should not fail the package (a broken icon or localization still
 * leaves a usable name, bundle id and version): turns its error into a warning. A timeout or
 * a failed read of the package itself still stops everything.
 */
export async function optional<T>(
  ctx: InspectContext,
  what: string,
  step: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof InspectError && (error.code === "timeout" || error.code === "read_failed")) throw error;
    ctx.warnings.push(`Skipped ${what}: ${messageOf(error)}`);
    return undefined;
  }
}
