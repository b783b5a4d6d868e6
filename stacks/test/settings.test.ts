import { describe, expect, it } from "vitest";
import { appStoreConnectEnvironment, enrollSigningEnvironment, functionEnvironment, resolveStageSettings, StageSettingsError } from "../settings";

describe("resolveStageSettings", () => {
  it("treats prod and production as production stages, anything else as disposable", () => {
    expect(resolveStageSettings("prod", {}).production).toBe(true);
    expect(resolveStageSettings("production", {}).production).toBe(true);
    expect(resolveStageSettings("dev", {}).production).toBe(false);
    expect(resolveStageSettings("pr-42", {}).production).toBe(false);
    expect(resolveStageSettings("live", { HANGAR_PRODUCTION: "true" }).production).toBe(true);
    expect(resolveStageSettings("prod", { HANGAR_PRODUCTION: "false" }).production).toBe(false);
  });

  it("defaults: short log retention and no alarms on dev, longer retention and alarms on prod", () => {
    expect(resolveStageSettings("dev", {})).toEqual({
      stage: "dev",
      production: false,
      logRetention: "one_week",
      logLevel: "INFO",
      corsOrigins: [],
      alarms: false,
      throttle: { rate: 200, burst: 400 },
      completeThrottle: { rate: 100, burst: 200 },
      publicThrottle: { rate: 200, burst: 400 },
      noncurrentVersionDays: 30,
      bucketAccessLogs: false,
      mailIdentityExists: false,
      waf: false,
      wafRateLimit: 2000,
      cloudfrontLogs: false,
      legacyTableName: false,
    });
    // WAF stays off in production unless set (cost at rest); CloudFront logs are on there.
    expect(resolveStageSettings("prod", {})).toMatchObject({ logRetention: "three_months", alarms: true, bucketAccessLogs: true, cloudfrontLogs: true, waf: false });
  });

  it("reads every setting from the deploy environment", () => {
    const s = resolveStageSettings("dev", {
      HANGAR_PUBLIC_URL: "https://dl.example.com/",
      HANGAR_SHARE_BASE_URL: "https://apps.example.com//",
      HANGAR_MAX_FILE_SIZE: "1000",
      HANGAR_RATE_LIMIT: "10",
      HANGAR_RATE_WINDOW_SECONDS: "30",
      HANGAR_RATE_RULES: "sharePage=300/60,signIn=200/900",
      HANGAR_PENDING_TTL_SECONDS: "3600",
      HANGAR_DOMAIN_NAME: "hangar.example.com",
      HANGAR_DOMAIN_HOSTED_ZONE: "example.com",
      HANGAR_LOG_RETENTION: "ONE_MONTH",
      HANGAR_LOG_LEVEL: "debug",
      HANGAR_CORS_ORIGINS: "https://a.example.com,,https://b.example.com ",
      HANGAR_ALARMS: "yes",
      HANGAR_ALARM_EMAIL: "ops@example.com",
      HANGAR_API_THROTTLE_RATE: "5",
      HANGAR_API_THROTTLE_BURST: "7",
      HANGAR_COMPLETE_THROTTLE_RATE: "2",
      HANGAR_COMPLETE_THROTTLE_BURST: "3",
      HANGAR_PUBLIC_THROTTLE_RATE: "8",
      HANGAR_PUBLIC_THROTTLE_BURST: "9",
      HANGAR_COMPLETE_RESERVED_CONCURRENCY: "4",
      HANGAR_NONCURRENT_VERSION_DAYS: "90",
      HANGAR_BUCKET_ACCESS_LOGS: "on",
      HANGAR_MAIL_FROM: "Hangar <hangar@mail.example.com>",
      HANGAR_MAIL_IDENTITY: "existing",
      HANGAR_SHARE_HOSTED_ZONE: "example.com",
      HANGAR_WAF: "on",
      HANGAR_WAF_RATE_LIMIT: "300",
      HANGAR_CLOUDFRONT_LOGS: "on",
      HANGAR_LEGACY_TABLE_NAME: "true",
    });
    expect(s).toEqual({
      stage: "dev",
      production: false,
      publicUrl: "https://dl.example.com",
      shareBaseUrl: "https://apps.example.com",
      maxFileSize: 1000,
      rateLimit: 10,
      rateRules: "sharePage=300/60,signIn=200/900",
      rateWindowSeconds: 30,
      pendingTtlSeconds: 3600,
      customDomain: { domainName: "hangar.example.com", hostedZone: "example.com" },
      logRetention: "one_month",
      logLevel: "DEBUG",
      corsOrigins: ["https://a.example.com", "https://b.example.com"],
      alarms: true,
      alarmEmail: "ops@example.com",
      throttle: { rate: 5, burst: 7 },
      completeThrottle: { rate: 2, burst: 3 },
      publicThrottle: { rate: 8, burst: 9 },
      completeReservedConcurrency: 4,
      noncurrentVersionDays: 90,
      bucketAccessLogs: true,
      mailFrom: { address: "hangar@mail.example.com", name: "Hangar", domain: "mail.example.com", header: "Hangar <hangar@mail.example.com>" },
      // The mail domain is inside the custom domain's zone: DKIM records go there.
      mailHostedZone: "example.com",
      mailIdentityExists: true,
      shareHostedZone: "example.com",
      waf: true,
      wafRateLimit: 300,
      cloudfrontLogs: true,
      legacyTableName: true,
    });
  });

  it("treats empty values as unset", () => {
    expect(resolveStageSettings("dev", { HANGAR_SHARE_BASE_URL: " ", HANGAR_CORS_ORIGINS: "" })).not.toHaveProperty("shareBaseUrl");
  });

  it.each([
    ["HANGAR_MAX_FILE_SIZE", "0"],
    ["HANGAR_MAX_FILE_SIZE", String(5 * 1024 ** 3 + 1)],
    ["HANGAR_MAX_FILE_SIZE", "1.5"],
    ["HANGAR_MAX_MULTIPART_FILE_SIZE", String(5 * 1024 ** 4 + 1)],
    ["HANGAR_PENDING_TTL_SECONDS", "60"],
    ["HANGAR_RATE_RULES", "noSuchRule=1/60"],
    ["HANGAR_RATE_RULES", "signIn=ten/900"],
    ["HANGAR_SHARE_BASE_URL", "apps.example.com"],
    ["HANGAR_PUBLIC_URL", "ftp://example.com"],
    ["HANGAR_LOG_RETENTION", "forever"],
    ["HANGAR_LOG_RETENTION", "infinite"],
    ["HANGAR_LOG_LEVEL", "TRACE"],
    ["HANGAR_ALARMS", "maybe"],
    ["HANGAR_DOMAIN_CERTIFICATE_ARN", "arn:aws:acm:eu-west-1:1:certificate/x"],
    ["HANGAR_NONCURRENT_VERSION_DAYS", "0"],
    ["HANGAR_COMPLETE_RESERVED_CONCURRENCY", "0"],
    ["HANGAR_COMPLETE_THROTTLE_RATE", "-1"],
    ["HANGAR_BUCKET_ACCESS_LOGS", "sometimes"],
    ["HANGAR_MAIL_FROM", "example.com"],
    ["HANGAR_MAIL_FROM", "not an identity"],
    ["HANGAR_MAIL_HOSTED_ZONE", "not a zone"],
    ["HANGAR_MAIL_IDENTITY", "maybe"],
    ["HANGAR_WAF", "sometimes"],
    ["HANGAR_WAF_RATE_LIMIT", "5"],
    ["HANGAR_CLOUDFRONT_LOGS", "perhaps"],
  ])("refuses %s=%s", (key, value) => {
    expect(() => resolveStageSettings("dev", { [key]: value })).toThrow(StageSettingsError);
  });

  it("refuses a bare domain as the mail sender with what to write instead", () => {
    expect(() => resolveStageSettings("prod", { HANGAR_MAIL_FROM: "example.com" })).toThrow(/HANGAR_MAIL_FROM.*noreply@example\.com/);
    expect(resolveStageSettings("prod", { HANGAR_MAIL_FROM: "noreply@example.com" }).mailFrom).toEqual({
      address: "noreply@example.com",
      domain: "example.com",
      header: "noreply@example.com",
    });
  });

  it("puts DKIM records in HANGAR_MAIL_HOSTED_ZONE, else in the custom domain's zone only when it holds the mail domain", () => {
    const mail = { HANGAR_MAIL_FROM: "noreply@mail.example.org" };
    expect(resolveStageSettings("prod", mail).mailHostedZone).toBeUndefined();
    expect(resolveStageSettings("prod", { ...mail, HANGAR_MAIL_HOSTED_ZONE: "example.org" }).mailHostedZone).toBe("example.org");
    const site = { HANGAR_DOMAIN_NAME: "hangar.example.com", HANGAR_DOMAIN_HOSTED_ZONE: "example.com" };
    expect(resolveStageSettings("prod", { ...mail, ...site }).mailHostedZone).toBeUndefined();
    expect(resolveStageSettings("prod", { ...site, HANGAR_MAIL_FROM: "Hangar <noreply@example.com>" }).mailHostedZone).toBe("example.com");
  });

  it("refuses a custom-domain certificate outside us-east-1, where CloudFront cannot use it", () => {
    const domain = { HANGAR_DOMAIN_NAME: "hangar.example.com" };
    expect(() => resolveStageSettings("dev", { ...domain, HANGAR_DOMAIN_CERTIFICATE_ARN: "arn:aws:acm:eu-west-1:123456789012:certificate/abc-1" })).toThrow(
      /us-east-1/,
    );
    expect(
      resolveStageSettings("dev", { ...domain, HANGAR_DOMAIN_CERTIFICATE_ARN: "arn:aws:acm:us-east-1:123456789012:certificate/abc-1" }).customDomain,
    ).toEqual({ domainName: "hangar.example.com", certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/abc-1" });
  });
});

describe("local-stack-only settings", () => {
  it.each([
    ["HANGAR_WEBHOOK_ALLOW_LOOPBACK", "1"],
    ["HANGAR_WEBHOOK_RETRY_SCHEDULE", "1,1"],
  ])("refuses %s at synth: a deployed stage never calls loopback receivers nor shortens retries", (name, value) => {
    expect(() => resolveStageSettings("dev", { [name]: value })).toThrow(StageSettingsError);
    expect(() => resolveStageSettings("prod", { [name]: value })).toThrow(new RegExp(`${name}.*local stack only`));
  });
});

describe("functionEnvironment", () => {
  const resources = { tableName: "t", bucketName: "b" };

  it("sets only the resources, the stage and the log level when nothing else is configured", () => {
    expect(functionEnvironment(resolveStageSettings("dev", {}), resources)).toEqual({
      HANGAR_TABLE_NAME: "t",
      HANGAR_BUCKET_NAME: "b",
      HANGAR_STAGE: "dev",
      POWERTOOLS_LOG_LEVEL: "INFO",
    });
  });

  it("defaults the public URL to the custom domain, known at synth, and passes the origin secret's ARN (never its value) and the client-address header", () => {
    const settings = resolveStageSettings("dev", { HANGAR_DOMAIN_NAME: "hangar.example.com" });
    const env = functionEnvironment(settings, { ...resources, originVerifySecretArn: "arn:aws:secretsmanager:eu-west-1:1:secret:s" });
    expect(env).toMatchObject({
      HANGAR_PUBLIC_URL: "https://hangar.example.com",
      HANGAR_ORIGIN_VERIFY_SECRET_ARN: "arn:aws:secretsmanager:eu-west-1:1:secret:s",
      // CloudFront's own header (the origin request policy in web-stack.ts) names the client's address.
      HANGAR_CLIENT_IP_HEADER: "cloudfront-viewer-address",
    });
    expect(env).not.toHaveProperty("HANGAR_ORIGIN_VERIFY_SECRET");
  });

  it("passes configured settings under the handlers' variable names", () => {
    const settings = resolveStageSettings("dev", {
      HANGAR_PUBLIC_URL: "https://dl.example.com",
      HANGAR_SHARE_BASE_URL: "https://apps.example.com",
      HANGAR_MAX_FILE_SIZE: "42",
      HANGAR_MAX_MULTIPART_FILE_SIZE: "43",
      HANGAR_RATE_LIMIT: "7",
      HANGAR_RATE_WINDOW_SECONDS: "9",
      HANGAR_PENDING_TTL_SECONDS: "1800",
      HANGAR_MAIL_FROM: "Hangar <noreply@example.com>",
    });
    expect(functionEnvironment(settings, { ...resources, sesConfigurationSet: "set-1" })).toEqual({
      HANGAR_TABLE_NAME: "t",
      HANGAR_BUCKET_NAME: "b",
      HANGAR_STAGE: "dev",
      POWERTOOLS_LOG_LEVEL: "INFO",
      HANGAR_SES_CONFIGURATION_SET: "set-1",
      HANGAR_PUBLIC_URL: "https://dl.example.com",
      HANGAR_SHARE_BASE_URL: "https://apps.example.com",
      HANGAR_MAX_FILE_SIZE: "42",
      HANGAR_MAX_MULTIPART_FILE_SIZE: "43",
      HANGAR_RATE_LIMIT: "7",
      HANGAR_RATE_WINDOW_SECONDS: "9",
      HANGAR_PENDING_TTL_SECONDS: "1800",
      HANGAR_MAIL_FROM: "Hangar <noreply@example.com>",
    });
  });
});

describe("The enroll profile's signing identity", () => {
  const arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:hangar/enroll-AbCdEf";
  it("is a Secrets Manager ARN given to the devices function only; a PEM file is the local stack's", () => {
    expect(resolveStageSettings("dev", {}).enrollSigningSecretArn).toBeUndefined();
    const settings = resolveStageSettings("prod", { HANGAR_ENROLL_SIGNING_SECRET_ARN: arn });
    expect(enrollSigningEnvironment(settings)).toEqual({ HANGAR_ENROLL_SIGNING_SECRET_ARN: arn });
    expect(functionEnvironment(settings, { tableName: "t", bucketName: "b" }).HANGAR_ENROLL_SIGNING_SECRET_ARN).toBeUndefined();
    expect(() => resolveStageSettings("prod", { HANGAR_ENROLL_SIGNING_SECRET_ARN: "identity.pem" })).toThrow(/HANGAR_ENROLL_SIGNING_SECRET_ARN.*not valid/);
    expect(() => resolveStageSettings("prod", { HANGAR_ENROLL_SIGNING_PEM_FILE: "/tmp/identity.pem" })).toThrow(/HANGAR_ENROLL_SIGNING_PEM_FILE.*local stack only/);
  });
});

describe("Register with Apple (App Store Connect key)", () => {
  const asc = {
    HANGAR_ASC_ISSUER_ID: "57246542-96fe-1a63-e053-0824d011072a",
    HANGAR_ASC_KEY_ID: "2X9R4HXF34",
    HANGAR_ASC_PRIVATE_KEY_SECRET_ARN: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:hangar/asc-AbCdEf",
  };

  it("is off by default, and on with all three settings: every function learns it is on, the key's place goes to the apple function only", () => {
    expect(resolveStageSettings("dev", {}).appStoreConnect).toBeUndefined();
    const settings = resolveStageSettings("dev", asc);
    expect(settings.appStoreConnect).toEqual({ issuerId: asc.HANGAR_ASC_ISSUER_ID, keyId: asc.HANGAR_ASC_KEY_ID, privateKeySecretArn: asc.HANGAR_ASC_PRIVATE_KEY_SECRET_ARN });
    const env = functionEnvironment(settings, { tableName: "t", bucketName: "b" });
    expect(env.HANGAR_ASC_ENABLED).toBe("1");
    expect(Object.keys(env).filter((k) => k.startsWith("HANGAR_ASC_"))).toEqual(["HANGAR_ASC_ENABLED"]);
    expect(appStoreConnectEnvironment(settings)).toEqual(asc);
  });

  it("refuses a partial or malformed key, naming the setting", () => {
    expect(() => resolveStageSettings("dev", { HANGAR_ASC_ISSUER_ID: asc.HANGAR_ASC_ISSUER_ID })).toThrow(/HANGAR_ASC_KEY_ID.*required/);
    expect(() => resolveStageSettings("dev", { ...asc, HANGAR_ASC_KEY_ID: "short" })).toThrow(/HANGAR_ASC_KEY_ID.*not valid/);
    expect(() => resolveStageSettings("dev", { ...asc, HANGAR_ASC_PRIVATE_KEY_SECRET_ARN: "key.p8" })).toThrow(/HANGAR_ASC_PRIVATE_KEY_SECRET_ARN.*not valid/);
  });

  it.each([
    ["HANGAR_ASC_PRIVATE_KEY_FILE", "/tmp/AuthKey.p8"],
    ["HANGAR_ASC_BASE_URL", "http://127.0.0.1:9999"],
  ])("refuses %s at synth: a deployed stage reads the key from Secrets Manager and calls Apple only", (name, value) => {
    expect(() => resolveStageSettings("prod", { ...asc, [name]: value })).toThrow(new RegExp(`${name}.*local stack only`));
  });
});
