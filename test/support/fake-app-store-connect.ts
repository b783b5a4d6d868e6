import { createServer, type IncomingMessage, type Server } from "node:http";
import { verify, type KeyObject } from "node:crypto";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the App Store Connect API's device endpoints (docs/devices.md, "Register
 * with Apple"), on 127.0.0.1. It checks every request the way Apple does before answering: the
 * bearer token is an ES256 JWT whose signature verifies with the API key's PUBLIC key, its header
 * is exactly `{alg: ES256, kid, typ: JWT}`, its claims carry the issuer, `aud: appstoreconnect-v1`
 * and a life of at most 20 minutes; a `POST /v1/devices` body is the JSON:API document
 * `{data: {type: "devices", attributes: {name, udid, platform: "IOS"}}}` and nothing else.
 * A request that fails a check is answered 401/400/409 as Apple would, and the reason is kept in
 * `problems`, so a test asserts both the outcome and that nothing was off.
 */

export interface FakeAscRequest {
  method: string;
  path: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  body: unknown;
}

export interface FakeAppStoreConnect {
  baseUrl: string;
  requests: FakeAscRequest[];
  problems: string[];
  /** Devices in the "Apple account", by UDID: Apple's id and the name it got. */
  devices: Map<string, { id: string; name: string }>;
  /** UDIDs Apple refuses as invalid (409 ENTITY_ERROR.ATTRIBUTE.INVALID). */
  invalidUdids: Set<string>;
  close(): Promise<void>;
}

const appleError = (status: number, code: string, title: string, detail: string) => ({ errors: [{ id: "fake", status: String(status), code, title, detail }] });

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => done(text));
    request.on("error", fail);
  });
}

/** Checks a bearer token as Apple does; the problem in words, or the decoded parts. */
function checkToken(authorization: string | undefined, key: { publicKey: KeyObject; issuerId: string; keyId: string }, nowSeconds: number) {
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  if (!token) return { problem: "no bearer token" } as const;
  const parts = token.split(".");
  if (parts.length !== 3) return { problem: "not a JWS compact token" } as const;
  const [h, c, s] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(c, "base64url").toString("utf8"));
  } catch {
    return { problem: "header or claims are not base64url JSON" } as const;
  }
  const signature = Buffer.from(s, "base64url");
  // ES256 in JOSE form: r‖s, 64 bytes, never DER.
  if (signature.length !== 64) return { problem: `signature is ${signature.length} bytes, not the 64 of ES256`, header, claims } as const;
  if (!verify("sha256", Buffer.from(`${h}.${c}`), { key: key.publicKey, dsaEncoding: "ieee-p1363" }, signature)) return { problem: "signature does not verify with the key's public key", header, claims } as const;
  if (JSON.stringify(Object.keys(header).sort()) !== JSON.stringify(["alg", "kid", "typ"])) return { problem: `header has ${Object.keys(header).join(",")}`, header, claims } as const;
  if (header.alg !== "ES256" || header.typ !== "JWT" || header.kid !== key.keyId) return { problem: `header ${JSON.stringify(header)}`, header, claims } as const;
  if (claims.iss !== key.issuerId) return { problem: `iss ${String(claims.iss)}`, header, claims } as const;
  if (claims.aud !== "appstoreconnect-v1") return { problem: `aud ${String(claims.aud)}`, header, claims } as const;
  const { iat, exp } = claims;
  if (!Number.isInteger(iat) || !Number.isInteger(exp)) return { problem: "iat and exp must be integer seconds", header, claims } as const;
  if ((exp as number) - (iat as number) > 1200 || (exp as number) <= (iat as number)) return { problem: `exp − iat = ${(exp as number) - (iat as number)} s (at most 1200)`, header, claims } as const;
  if ((exp as number) <= nowSeconds || (iat as number) > nowSeconds + 60) return { problem: "token expired or from the future", header, claims } as const;
  return { header, claims } as const;
}

function checkDeviceBody(body: unknown): string | undefined {
  const doc = body as { data?: { type?: unknown; attributes?: Record<string, unknown> } } | undefined;
  if (!doc || typeof doc !== "object" || JSON.stringify(Object.keys(doc)) !== JSON.stringify(["data"])) return "body is not {data}";
  const data = doc.data;
  if (!data || JSON.stringify(Object.keys(data).sort()) !== JSON.stringify(["attributes", "type"])) return "data is not {type, attributes}";
  if (data.type !== "devices") return `type ${String(data.type)}`;
  const attributes = data.attributes!;
  if (JSON.stringify(Object.keys(attributes).sort()) !== JSON.stringify(["name", "platform", "udid"])) return `attributes are ${Object.keys(attributes).join(",")}`;
  if (attributes.platform !== "IOS") return `platform ${String(attributes.platform)}`;
  if (typeof attributes.name !== "string" || attributes.name.length < 1 || attributes.name.length > 50 || /[\t\r\n]/.test(attributes.name)) return `name ${JSON.stringify(attributes.name)}`;
  if (typeof attributes.udid !== "string") return "udid is not a string";
  return undefined;
}

export async function startFakeAppStoreConnect(key: { publicKey: KeyObject; issuerId: string; keyId: string }): Promise<FakeAppStoreConnect> {
  const fake = { requests: [] as FakeAscRequest[], problems: [] as string[], devices: new Map<string, { id: string; name: string }>(), invalidUdids: new Set<string>() };
  let next = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      const url = new URL(request.url ?? "/", "http://fake");
      const text = await readBody(request);
      const checked = checkToken(request.headers.authorization, key, Math.floor(Date.now() / 1000));
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      fake.requests.push({ method: request.method ?? "", path: url.pathname + url.search, header: checked.header ?? {}, claims: checked.claims ?? {}, body });
      if ("problem" in checked) {
        fake.problems.push(`${request.method} ${url.pathname}: ${checked.problem}`);
        return answer(401, appleError(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", "Provide a properly configured and signed bearer token, and make sure that it has not expired."));
      }
      if (request.method === "POST" && url.pathname === "/v1/devices") {
        if (!/^application\/json\b/.test(request.headers["content-type"] ?? "")) {
          fake.problems.push(`content-type ${request.headers["content-type"]}`);
          return answer(415, appleError(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", "Send JSON"));
        }
        const problem = checkDeviceBody(body);
        if (problem) {
          fake.problems.push(`POST /v1/devices body: ${problem}`);
          return answer(400, appleError(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value", problem));
        }
        const { name, udid } = (body as { data: { attributes: { name: string; udid: string } } }).data.attributes;
        if (fake.invalidUdids.has(udid)) {
          return answer(409, appleError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", `An invalid value '${udid}' was provided for the parameter 'udid'.`));
        }
        if (fake.devices.has(udid)) {
          return answer(409, appleError(409, "ENTITY_ERROR", "There is a problem with the request entity", `A device with number '${udid}' already exists on this team.`));
        }
        const id = `FAKE${String(++next).padStart(6, "0")}`;
        fake.devices.set(udid, { id, name });
        return answer(201, { data: { type: "devices", id, attributes: { name, udid, platform: "IOS", status: "ENABLED" } } });
      }
      if (request.method === "GET" && url.pathname === "/v1/devices") {
        const udid = url.searchParams.get("filter[udid]");
        const found = [...fake.devices].filter(([u]) => udid === null || u === udid).map(([u, d]) => ({ type: "devices", id: d.id, attributes: { name: d.name, udid: u, platform: "IOS" } }));
        return answer(200, { data: found });
      }
      return answer(404, appleError(404, "NOT_FOUND", "The specified resource does not exist", `${request.method} ${url.pathname}`));
    })().catch((error: unknown) => {
      fake.problems.push(`fake crashed: ${String(error)}`);
      response.destroy();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
