import { describe, expect, it } from "vitest";
import { Settings } from "../src/composition/settings.schema";

const base = { HANGAR_TABLE_NAME: "t", HANGAR_BUCKET_NAME: "b" };
const issues = (env: Record<string, string>) => {
  const parsed = Settings.safeParse({ ...base, ...env });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("production settings", () => {
  it("HANGAR_MAIL_FROM takes an address or Name <address>", () => {
    expect(issues({ HANGAR_MAIL_FROM: "noreply@example.com" })).toEqual([]);
    expect(issues({ HANGAR_MAIL_FROM: "Hangar <noreply@example.com>" })).toEqual([]);
  });

  it("a bare-domain HANGAR_MAIL_FROM is a configuration error that says what to write", () => {
    expect(issues({ HANGAR_MAIL_FROM: "example.com" })).toEqual([
      'HANGAR_MAIL_FROM: "example.com" is a domain, not a sender address: write an address at it, e.g. "noreply@example.com" or "Hangar <noreply@example.com>"',
    ]);
  });

  it("HANGAR_SES_CONFIGURATION_SET, HANGAR_STAGE and HANGAR_ORIGIN_VERIFY_SECRET_ARN are read and checked", () => {
    const parsed = Settings.parse({
      ...base,
      HANGAR_SES_CONFIGURATION_SET: "hangar-prod",
      HANGAR_STAGE: "prod",
      HANGAR_ORIGIN_VERIFY_SECRET_ARN: "arn:aws:secretsmanager:eu-west-1:000000000000:secret:origin-AbCdEf",
    });
    expect(parsed).toMatchObject({ HANGAR_SES_CONFIGURATION_SET: "hangar-prod", HANGAR_STAGE: "prod" });
    expect(issues({ HANGAR_SES_CONFIGURATION_SET: "has spaces" })).toHaveLength(1);
    expect(issues({ HANGAR_ORIGIN_VERIFY_SECRET_ARN: "the-secret-itself-pasted-by-mistake-0123456789" })).toEqual([
      "HANGAR_ORIGIN_VERIFY_SECRET_ARN: must be a Secrets Manager secret ARN",
    ]);
  });
});
