/** Shorter strings would garble unrelated text if replaced everywhere (and are no real secret). */
const MIN_SECRET_LENGTH = 4;

/**
 * Makes text safe to print: removes the given secrets verbatim, any bearer token, and the
 * signature parts of presigned addresses (a presigned PUT is a credential until it expires).
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const literal = secrets
    .filter((s): s is string => typeof s === "string" && s.length >= MIN_SECRET_LENGTH)
    // Longest first, so a secret containing another is removed whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of literal) out = out.split(secret).join("***");
    return out
      .replace(/(Bearer\s+)[^\s"',;]+/gi, "$1***")
      .replace(/([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature)=)[^&\s"']*/gi, "$1***");
  };
}
