import type { IncomingMessage, ServerResponse } from "node:http";
import type { FileObjectStorage } from "./storage/file-object-storage";
import type { MultipartUploads } from "./storage/multipart-uploads";
import type { QueryParam } from "./sigv4/canonical";
import type { VerifiedRequest } from "./sigv4/verify-sigv4";

/** One request being answered, with the parts every operation needs already parsed. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  method: string;
  rawPath: string;
  query: QueryParam[];
  /** Lower-case name → values as received. */
  headers: Map<string, string[]>;
  /** The client sent `Expect: 100-continue`; the body only comes after res.writeContinue(). */
  expectContinue: boolean;
  storage: FileObjectStorage;
  uploads: MultipartUploads;
}

export interface AuthorizedExchange extends Exchange {
  auth: VerifiedRequest;
}

/** A header's value, repeats joined by commas (HTTP's list rule), or undefined when absent. */
export function header(exchange: Exchange, name: string): string | undefined {
  return exchange.headers.get(name)?.join(",");
}

export function queryParam(exchange: Exchange, name: string): string | undefined {
  return exchange.query.find((p) => p.name === name)?.value;
}

export function headersFromRaw(rawHeaders: readonly string[]): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const values = headers.get(name);
    if (values) values.push(rawHeaders[i + 1]!);
    else headers.set(name, [rawHeaders[i + 1]!]);
  }
  return headers;
}
