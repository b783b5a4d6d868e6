/** Issue 24 item 5 (the retention helper fills this): apply every project's retention policy. */
export async function runDailyRetention(_now: Date): Promise<Record<string, number>> {
  return {};
}
