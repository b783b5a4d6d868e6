import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from "aws-lambda";

type ObservabilityModule = typeof import("../../src/observability");

const SECRET = "s3cr3t-value-never-logged";

function apiEvent(headers: Record<string, string>): APIGatewayProxyEventV2 {
  return {
    version: "2.0",
    routeKey: "POST /api/upload/api-key/presign",
    rawPath: "/api/upload/api-key/presign",
    rawQueryString: "",
    headers,
    isBase64Encoded: false,
    requestContext: {
      accountId: "000000000000",
      apiId: "api",
      domainName: "example.com",
      domainPrefix: "example",
      http: { method: "POST", path: "/api/upload/api-key/presign", protocol: "HTTP/1.1", sourceIp: "192.0.2.1", userAgent: "ci" },
      requestId: "req-123",
      routeKey: "POST /api/upload/api-key/presign",
      stage: "$default",
      time: "01/Jan/2025:00:00:00 +0000",
      timeEpoch: 0,
    },
  };
}

const lambdaContext = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: "hangar-presign",
  functionVersion: "$LATEST",
  invokedFunctionArn: "arn:aws:lambda:eu-west-1:000000000000:function:hangar-presign",
  memoryLimitInMB: "256",
  awsRequestId: "lambda-req-1",
  logGroupName: "/aws/lambda/hangar-presign",
  logStreamName: "stream",
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies Context;

/**
 * Fresh modules per test, wired as in a function: the composition root parses the environment
 * (settings.schema.ts) and switches metrics on or off; the metrics module reads no env itself.
 */
async function load(env: Record<string, string | undefined>): Promise<ObservabilityModule> {
  for (const [k, v] of Object.entries({ HANGAR_TABLE_NAME: "table", HANGAR_BUCKET_NAME: "bucket", ...env })) {
    if (v === undefined) vi.stubEnv(k, undefined as unknown as string);
    else vi.stubEnv(k, v);
  }
  vi.resetModules();
  const mod = await import("../../src/observability");
  const { getRuntime } = await import("../../src/composition/root");
  getRuntime();
  return mod;
}

let stdout: string[];
beforeEach(() => {
  stdout = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  });
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "log").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const jsonLines = () =>
  stdout
    .join("")
    .split("\n")
    .filter((l) => l.trim().startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const emfLines = () => jsonLines().filter((l) => "_aws" in l);

function wrap(mod: ObservabilityModule, body: (m: ObservabilityModule) => APIGatewayProxyResultV2) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>()
    .use(mod.observability())
    .handler(async () => body(mod));
}

const inLambda = {
  AWS_LAMBDA_FUNCTION_NAME: "hangar-presign",
  HANGAR_LOCAL: undefined,
  POWERTOOLS_METRICS_DISABLED: undefined,
  POWERTOOLS_DEV: undefined,
  POWERTOOLS_LOG_LEVEL: "INFO",
};

describe("metricsEnabled", () => {
  it("is on in Lambda, off locally, and the env switches override", async () => {
    const { metricsEnabled } = await load({});
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: "f" })).toBe(true);
    expect(metricsEnabled({})).toBe(false);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: "f", HANGAR_LOCAL: "1" })).toBe(false);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: "f", POWERTOOLS_METRICS_DISABLED: "true" })).toBe(false);
    expect(metricsEnabled({ POWERTOOLS_METRICS_DISABLED: "false" })).toBe(true);
    expect(metricsEnabled({ POWERTOOLS_METRICS_DISABLED: "false", HANGAR_LOCAL: "1" })).toBe(false);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: "f", POWERTOOLS_DEV: "true" })).toBe(false);
  });
});

describe("requestLogKeys", () => {
  it("takes the request id and client id, never the Authorization header", async () => {
    const { requestLogKeys } = await load({});
    const keys = requestLogKeys(apiEvent({ "x-client-id": "client-1", authorization: `Bearer ${SECRET}` }));
    expect(keys).toEqual({ requestId: "req-123", clientId: "client-1" });
  });

  it("matches the client id header case-insensitively and bounds its length", async () => {
    const { requestLogKeys } = await load({});
    const keys = requestLogKeys(apiEvent({ "X-Client-ID": "x".repeat(1000) }));
    expect(keys.clientId).toHaveLength(128);
  });

  it("omits keys that are absent", async () => {
    const { requestLogKeys } = await load({});
    expect(requestLogKeys({ headers: {} })).toEqual({});
  });
});

describe("observability middleware in Lambda", () => {
  it("publishes one EMF document in namespace Hangar with the recorded metrics", async () => {
    const mod = await load(inLambda);
    const handler = wrap(mod, (m) => {
      m.record.uploadCompleted();
      m.record.extractionTime(42);
      m.record.bytesRead(1234);
      return { statusCode: 200, body: "{}" };
    });
    await handler(apiEvent({ "x-client-id": "client-1" }), lambdaContext);

    const emf = emfLines();
    expect(emf).toHaveLength(1);
    const doc = emf[0]!;
    const aws = doc._aws as { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string; Unit: string }[] }[] };
    const directive = aws.CloudWatchMetrics[0]!;
    expect(directive.Namespace).toBe("Hangar");
    expect(directive.Metrics).toEqual(
      expect.arrayContaining([
        { Name: "UploadsCompleted", Unit: "Count" },
        { Name: "ExtractionTime", Unit: "Milliseconds" },
        { Name: "BytesRead", Unit: "Bytes" },
      ]),
    );
    expect(doc).toMatchObject({ UploadsCompleted: 1, ExtractionTime: 42, BytesRead: 1234, service: "hangar" });
  });

  it("flushes metrics when the handler throws, with the rejection reason as metadata", async () => {
    const mod = await load(inLambda);
    const handler = wrap(mod, (m) => {
      m.record.uploadRejected("PACKAGE_INVALID");
      m.record.rateLimited();
      throw new Error("boom");
    });
    await expect(handler(apiEvent({}), lambdaContext)).rejects.toThrow("boom");
    const doc = emfLines()[0];
    expect(doc).toMatchObject({ UploadsRejected: 1, RateLimited: 1, rejectReason: "PACKAGE_INVALID" });
  });

  it("prints nothing for a request that recorded no metric (no empty-flush warning)", async () => {
    const mod = await load({ ...inLambda, POWERTOOLS_LOG_LEVEL: "SILENT" });
    const handler = wrap(mod, () => ({ statusCode: 404, body: "{}" }));
    await handler(apiEvent({}), lambdaContext);
    expect(stdout.join("")).toBe("");
    expect(console.warn).not.toHaveBeenCalled();
  });

  it("adds requestId, clientId and Lambda context to log lines, never the secret, and resets them after", async () => {
    const mod = await load(inLambda);
    const handler = wrap(mod, (m) => {
      m.logger.info("inside");
      return { statusCode: 200, body: "{}" };
    });
    await handler(apiEvent({ "x-client-id": "client-1", authorization: `Bearer ${SECRET}` }), lambdaContext);
    mod.logger.info("outside");

    const logs = jsonLines().filter((l) => !("_aws" in l));
    const inside = logs.find((l) => l.message === "inside");
    const outside = logs.find((l) => l.message === "outside");
    expect(inside).toMatchObject({
      service: "hangar",
      requestId: "req-123",
      clientId: "client-1",
      function_request_id: "lambda-req-1",
    });
    expect(outside).toBeDefined();
    expect(outside).not.toHaveProperty("requestId");
    expect(outside).not.toHaveProperty("clientId");
    expect(stdout.join("")).not.toContain(SECRET);
  });

  it("never logs the event, even when POWERTOOLS_LOGGER_LOG_EVENT asks for it", async () => {
    const mod = await load({ ...inLambda, POWERTOOLS_LOGGER_LOG_EVENT: "true" });
    const handler = wrap(mod, () => ({ statusCode: 200, body: "{}" }));
    await handler(apiEvent({ authorization: `Bearer ${SECRET}` }), lambdaContext);
    expect(stdout.join("")).not.toContain(SECRET);
  });
});

describe("observability middleware locally", () => {
  it.each([
    ["HANGAR_LOCAL=1", { ...inLambda, HANGAR_LOCAL: "1" }],
    ["outside Lambda", { ...inLambda, AWS_LAMBDA_FUNCTION_NAME: undefined }],
    ["POWERTOOLS_METRICS_DISABLED=true", { ...inLambda, POWERTOOLS_METRICS_DISABLED: "true" }],
  ])("prints no EMF and no warning (%s)", async (_label, env) => {
    const mod = await load({ ...env, POWERTOOLS_LOG_LEVEL: "SILENT" });
    const handler = wrap(mod, (m) => {
      m.record.uploadCompleted();
      m.record.uploadRejected("X");
      m.record.extractionTime(1);
      m.record.bytesRead(1);
      m.record.rateLimited();
      m.metrics.addMetric("Direct", "Count", 1);
      return { statusCode: 200, body: "{}" };
    });
    await handler(apiEvent({}), lambdaContext);
    expect(stdout.join("")).toBe("");
    expect(console.warn).not.toHaveBeenCalled();
    expect(console.log).not.toHaveBeenCalled();
    expect(mod.metrics.hasStoredMetrics()).toBe(false);
  });
});

describe("metrics per stage", () => {
  it("every EMF document carries exactly the service and stage dimensions (HANGAR_STAGE), with the new metrics", async () => {
    const mod = await load({ ...inLambda, HANGAR_STAGE: "prod" });
    const handler = wrap(mod, (m) => {
      m.record.download();
      m.record.installStart();
      m.record.signIn();
      m.record.signInFailure();
      m.record.mailSent();
      m.record.mailBounces(2);
      return { statusCode: 200, body: "{}" };
    });
    await handler(apiEvent({}), lambdaContext);
    const doc = emfLines()[0]!;
    const directive = (doc._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!;
    expect(directive.Namespace).toBe("Hangar");
    expect(directive.Dimensions).toEqual([["service", "stage"]]);
    expect(doc).toMatchObject({ service: "hangar", stage: "prod" });
    expect(directive.Metrics.map((m) => m.Name).sort()).toEqual(["Downloads", "InstallStarts", "MailBounces", "MailsSent", "SignInFailures", "SignIns"]);
    expect(doc).toMatchObject({ Downloads: 1, InstallStarts: 1, SignIns: 1, SignInFailures: 1, MailsSent: 1, MailBounces: 2 });
  });
});

describe("the per-request log line", () => {
  const SECRET_HEADER = "o".repeat(40);
  const env = { ...inLambda, HANGAR_CLIENT_IP_HEADER: "x-hangar-viewer-address", HANGAR_ORIGIN_VERIFY_SECRET: SECRET_HEADER };
  const downloadEvent = (headers: Record<string, string>) => ({
    ...apiEvent(headers),
    routeKey: "GET /download/{userKey}",
    // As API Gateway sends it: the route's path parameter (the dispatch parses it before the handler).
    pathParameters: { userKey: "AbC123" },
    requestContext: { ...apiEvent(headers).requestContext, routeKey: "GET /download/{userKey}", http: { ...apiEvent(headers).requestContext.http, method: "GET" } },
  });

  async function requestLine(headers: Record<string, string>) {
    await load(env);
    const { httpFunction, json } = await import("../../src/middleware/http-function");
    const handler = httpFunction("download", {
      "GET /download/{userKey}": { handler: async () => json(200, {}) },
      "HEAD /download/{userKey}": { handler: async () => json(200, {}) },
    });
    await handler(downloadEvent(headers), lambdaContext as never);
    return jsonLines().find((l) => l.message === "request");
  }

  it("names the viewer's address when CloudFront vouched for it with the origin secret, and the status", async () => {
    const line = await requestLine({ "x-hangar-origin-verify": SECRET_HEADER, "x-hangar-viewer-address": "198.51.100.7:52100" });
    expect(line).toMatchObject({ route: "GET /download/{userKey}", status: 200, viewerAddress: "198.51.100.7", requestId: "req-123" });
    expect(JSON.stringify(line)).not.toContain(SECRET_HEADER);
  });

  it("uses the address API Gateway saw when the header comes without the secret (a forged header is not logged as the viewer)", async () => {
    const line = await requestLine({ "x-hangar-viewer-address": "198.51.100.7", authorization: `Bearer ${SECRET}` });
    expect(line).toMatchObject({ viewerAddress: "192.0.2.1" });
    expect(stdout.join("")).not.toContain(SECRET);
  });
});
