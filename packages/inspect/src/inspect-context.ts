import { InspectError, defaultLimits } from "./inspect-result";
import type { InspectLimits } from "./inspect-result";

/**
 * What every parser of one package shares: the limits, the wall-clock deadline and the
 * warnings collected on the way. Parsers call `checkDeadline()` in their loops so a hostile
 * package cannot hold a Lambda past API Gateway's 30 s.
 */
export interface InspectContext {
  limits: InspectLimits;
  /** Epoch milliseconds after which work stops with InspectError("timeout"). */
  deadline: number;
  warnings: string[];
  /** Throws InspectError("timeout") once the deadline has passed. */
  checkDeadline(): void;
}

export function createInspectContext(
  limits?: Partial<InspectLimits>,
  now: () => number = Date.now,
): InspectContext {
  const merged: InspectLimits = { ...defaultLimits, ...stripUndefined(limits ?? {}) };
  const deadline = now() + merged.timeBudgetMs;
  return {
    limits: merged,
    deadline,
    warnings: [],
    checkDeadline() {
      if (now() > deadline) throw timeoutError(merged);
    },
  };
}

/** The one timeout error, whether a parser loop or the outer timer notices first. */
export function timeoutError(limits: InspectLimits): InspectError {
  return new InspectError("timeout", `Package inspection exceeded its time budget of ${limits.timeBudgetMs} ms`);
}

function stripUndefined(limits: Partial<InspectLimits>): Partial<InspectLimits> {
  return Object.fromEntries(
    Object.entries(limits).filter(([, value]) => value !== undefined),
  ) as Partial<InspectLimits>;
}
