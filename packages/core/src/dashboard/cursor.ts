import { createHmac, timingSafeEqual } from "node:crypto";
import { HangarError } from "../errors/domain-errors";

/** 400: a page cursor this service did not hand out for this list. */
export class InvalidCursorError extends HangarError {
  readonly code = "invalid_cursor";
  constructor() {
    super("This cursor was not handed out for this list; start again from the first page", {
      fields: [{ field: "cursor", message: "is not a cursor of this list" }],
    });
  }
}

/**
 * Page cursors are the sort key of the last item shown (`FILE#<createdAt>#<fileId>`), base64url,
 * followed by a MAC over the list they belong to (the project) and that sort key, keyed by the
 * stage's secret: `<base64url sort key>.<base64url MAC>`. The server always supplies the
 * partition (the caller's own project), so even a forged cursor could only move within what the
 * caller may see; the MAC makes a cursor that was not handed out, or one of another list, a 400
 * (`invalid_cursor`) instead of a silently different page. A well-formed but unsigned value never
 * reaches DynamoDB.
 */
const FILE_SORT_KEY = /^FILE#\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z#[A-Za-z0-9_]{1,64}$/;
const CURSOR = /^([A-Za-z0-9_-]{1,256})\.([A-Za-z0-9_-]{22})$/;
/** 128 bits of HMAC-SHA256: forging one is a 2^128 guess per request. */
const MAC_BYTES = 16;

const mac = (secret: Uint8Array, list: string, sortKey: string) =>
  createHmac("sha256", secret).update(`cursor\n${list}\n${sortKey}`).digest().subarray(0, MAC_BYTES);

/** The cursor that continues `list` after `sortKey`; null at the end of the list. */
export function encodeCursor(secret: Uint8Array, list: string, sortKey: string | undefined): string | null {
  if (sortKey === undefined) return null;
  return `${Buffer.from(sortKey, "utf8").toString("base64url")}.${mac(secret, list, sortKey).toString("base64url")}`;
}

/**
 * The sort key a cursor of `list` stands for; InvalidCursorError for anything not handed out.
 * `shape` is what a sort key of that list looks like (a file list's by default; the audit log
 * passes its own): even a correctly signed value of another shape never reaches DynamoDB.
 */
export function decodeCursor(secret: Uint8Array, list: string, cursor: string | undefined, shape: RegExp = FILE_SORT_KEY): string | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  const match = CURSOR.exec(cursor);
  if (!match) throw new InvalidCursorError();
  const sortKey = Buffer.from(match[1]!, "base64url").toString("utf8");
  const given = Buffer.from(match[2]!, "base64url");
  const expected = mac(secret, list, sortKey);
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || !shape.test(sortKey)) {
    throw new InvalidCursorError();
  }
  return sortKey;
}
