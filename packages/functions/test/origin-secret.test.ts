import { afterEach, describe, expect, it, vi } from "vitest";
import { DependencyError } from "@hangar/core";
import { clientInfo } from "../src/accounts/client-info";
import { linkBases, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER } from "../src/composition/link-bases";
import { loadOriginSecret, useSecretFetcher } from "../src/composition/origin-secret";
import { Settings } from "../src/composition/settings.schema";
import type { HttpEvent } from "../src/middleware/http-context";

const ARN = "arn:aws:secretsmanager:eu-west-1:000000000000:secret:hangar-prod-origin-verify-AbCdEf";
const SECRET = "f".repeat(48);
const settings = Settings.parse({
  HANGAR_TABLE_NAME: "t",
  HANGAR_BUCKET_NAME: "b",
  HANGAR_ORIGIN_VERIFY_SECRET_ARN: ARN,
  HANGAR_CLIENT_IP_HEADER: VIEWER_ADDRESS_HEADER,
});
const event = (headers: Record<string, string>) =>
  ({ headers, requestContext: { domainName: "abc123.execute-api.eu-west-1.amazonaws.com", http: { sourceIp: "203.0.113.9" } } }) as unknown as HttpEvent;
const viaCloudFront = (secret: string) =>
  event({ [ORIGIN_VERIFY_HEADER]: secret, [VIEWER_HOST_HEADER]: "hangar.example.com", [VIEWER_ADDRESS_HEADER]: "198.51.100.7:443" });

afterEach(() => useSecretFetcher(undefined));

describe("origin secret from Secrets Manager (HANGAR_ORIGIN_VERIFY_SECRET_ARN)", () => {
  it("is fetched once per container, by ARN, however many requests arrive together", async () => {
    const fetcher = vi.fn(async (_arn: string) => SECRET);
    useSecretFetcher(fetcher);
    await Promise.all([loadOriginSecret(settings), loadOriginSecret(settings), loadOriginSecret(settings)]);
    await loadOriginSecret(settings);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith(ARN);
  });

  it("once fetched, vouches for CloudFront's viewer host and address; a wrong secret is not trusted", async () => {
    useSecretFetcher(async () => SECRET);
    await loadOriginSecret(settings);
    expect(linkBases(viaCloudFront(SECRET), settings).publicBaseUrl).toBe("https://hangar.example.com");
    expect(clientInfo(viaCloudFront(SECRET), settings).ip).toBe("198.51.100.7");
    expect(linkBases(viaCloudFront("x".repeat(48)), settings).publicBaseUrl).toBe("https://abc123.execute-api.eu-west-1.amazonaws.com");
    expect(clientInfo(viaCloudFront("x".repeat(48)), settings).ip).toBe("203.0.113.9");
  });

  it("trusts no header before it is fetched (never 'no secret, so trust everything')", () => {
    useSecretFetcher(async () => SECRET);
    expect(clientInfo(viaCloudFront(SECRET), settings).ip).toBe("203.0.113.9");
    expect(linkBases(viaCloudFront(SECRET), settings).publicBaseUrl).toBe("https://abc123.execute-api.eu-west-1.amazonaws.com");
  });

  it("a failed fetch is a DependencyError (503 with Retry-After), not cached: the next request tries again", async () => {
    const fetcher = vi
      .fn<(arn: string) => Promise<string>>()
      .mockRejectedValueOnce(Object.assign(new Error("not authorized"), { name: "AccessDeniedException" }))
      .mockResolvedValueOnce(SECRET);
    useSecretFetcher(fetcher);
    const error = await loadOriginSecret(settings).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toBe("could not read the origin secret (AccessDeniedException)");
    await loadOriginSecret(settings);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(clientInfo(viaCloudFront(SECRET), settings).ip).toBe("198.51.100.7");
  });

  it("a stage without the ARN fetches nothing", async () => {
    const fetcher = vi.fn(async () => SECRET);
    useSecretFetcher(fetcher);
    await loadOriginSecret(Settings.parse({ HANGAR_TABLE_NAME: "t", HANGAR_BUCKET_NAME: "b" }));
    expect(fetcher).not.toHaveBeenCalled();
  });
});
