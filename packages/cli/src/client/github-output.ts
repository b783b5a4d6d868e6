import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";

/**
 * GitHub Actions step outputs in the multiline form (`name<<DELIMITER`), so a value with a
 * newline or `=` cannot inject another output. The delimiter is random and checked against the
 * values, as the Actions toolkit does.
 */
export function formatGithubOutput(
  values: Record<string, string>,
  makeDelimiter: () => string = () => `ghadelimiter_${randomBytes(16).toString("hex")}`,
): string {
  let text = "";
  for (const [name, value] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new Error(`invalid output name: ${name}`);
    let delimiter = makeDelimiter();
    for (let tries = 0; value.includes(delimiter) || name.includes(delimiter); tries++) {
      if (tries >= 10) throw new Error(`cannot find a delimiter for output ${name}`);
      delimiter = makeDelimiter();
    }
    text += `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }
  return text;
}

/** One append, so a failure leaves either all outputs or none. */
export function appendGithubOutput(path: string, values: Record<string, string>): void {
  appendFileSync(path, formatGithubOutput(values), "utf8");
}
