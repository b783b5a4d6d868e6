/** Issue 24 item 4 (the expiry helper fills this): mail the warnings due before builds expire. */
export async function runDailyExpiryWarnings(_now: Date): Promise<Record<string, number>> {
  return {};
}
