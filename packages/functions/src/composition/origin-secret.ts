import { DependencyError } from "@hangar/core";
import { readSecretString } from "@hangar/core/aws-secrets";
import { loadSettings, type Settings } from "./settings.schema";

/** Reads a secret's value by ARN; the Secrets Manager client by default, a stub in tests. */
export type SecretFetcher = (arn: string) => Promise<string>;

/** One signed GetSecretValue (no Secrets Manager client in any bundle), only when the stage names a secret ARN. */
const secretsManagerFetcher: SecretFetcher = (arn) => readSecretString(arn);

let fetcher: SecretFetcher = secretsManagerFetcher;
let pending: Promise<string> | undefined;
let fetched: string | undefined;

/** Tests only: a fetcher that needs no AWS, and a cold container again. */
export function useSecretFetcher(next: SecretFetcher | undefined): void {
  fetcher = next ?? secretsManagerFetcher;
  pending = undefined;
  fetched = undefined;
}

/**
 * Fetches the origin-verify secret once per container when the stage keeps it in Secrets Manager
 * (HANGAR_ORIGIN_VERIFY_SECRET_ARN), before the first origin check. One promise is shared by
 * concurrent callers; a failure is not cached (the next request tries again) and becomes
 * DependencyError, so the request answers 503 with Retry-After instead of trusting nothing
 * silently or leaking a 500. A secret rotated in Secrets Manager reaches a container when it is
 * recycled; CloudFront sends the new value only after the stack deploys it (docs/deploy.md).
 */
export async function loadOriginSecret(settings: Pick<Settings, "HANGAR_ORIGIN_VERIFY_SECRET_ARN"> = loadSettings()): Promise<void> {
  const arn = settings.HANGAR_ORIGIN_VERIFY_SECRET_ARN;
  if (!arn || fetched !== undefined) return;
  pending ??= fetcher(arn).then((value) => {
    // Shorter than the stacks ever generate: a wrong secret, never trusted.
    if (value.length < 32) throw new Error("the origin secret is shorter than 32 characters");
    return (fetched = value);
  });
  try {
    await pending;
  } catch (error) {
    pending = undefined;
    const name = error instanceof Error ? error.name : "UnknownError";
    throw new DependencyError("secrets", `could not read the origin secret (${name})`, { cause: error });
  }
}

/**
 * The secret the origin checks compare against: the plain setting (the local stack, tests), else
 * the value loadOriginSecret fetched. Undefined when neither: no header is trusted.
 */
export function originSecret(settings: Pick<Settings, "HANGAR_ORIGIN_VERIFY_SECRET">): string | undefined {
  return settings.HANGAR_ORIGIN_VERIFY_SECRET ?? fetched;
}
