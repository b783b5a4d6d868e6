/** The InspectError code a promise rejects with, "resolved", or what else it threw: one string to assert on. */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return error instanceof Error && error.name === "InspectError" && typeof code === "string"
      ? code
      : `not an InspectError: ${String(error)}`;
  }
  return "resolved";
}
