import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invokeAsync } from "../src/composition/self-invoke";

/** Lambda's Invoke on loopback: records each request; a function named "missing" does not exist. */
let server: Server;
let endpoint: string;
const seen: { method?: string; url?: string; headers: IncomingMessage["headers"]; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url?.includes("/missing/")) {
        res.writeHead(404, { "x-amzn-errortype": "ResourceNotFoundException:http://internal.amazon.com/coral/com.amazonaws.awsgirlambda/" });
        res.end(JSON.stringify({ Type: "User", message: "Function not found: missing" }));
      } else res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? "secret" });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a background task's invocation", () => {
  it("is Lambda's asynchronous Invoke of the function with the JSON payload, signed for lambda in the region", async () => {
    seen.length = 0;
    await invokeAsync("hangar-prod-projects", { hangarPurge: { kind: "project", workspaceId: "w", projectId: "p" } }, { region: "eu-central-1", endpoint });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/2015-03-31/functions/hangar-prod-projects/invocations" });
    expect(seen[0]!.headers["x-amz-invocation-type"]).toBe("Event");
    expect(seen[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=\w+\/\d{8}\/eu-central-1\/lambda\/aws4_request, /);
    expect(JSON.parse(seen[0]!.body)).toEqual({ hangarPurge: { kind: "project", workspaceId: "w", projectId: "p" } });
  });

  it("fails with the service's error name when Lambda refuses it", async () => {
    await expect(invokeAsync("missing", {}, { region: "eu-central-1", endpoint })).rejects.toMatchObject({ name: "ResourceNotFoundException", status: 404 });
  });
});
