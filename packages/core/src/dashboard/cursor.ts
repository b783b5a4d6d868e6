import { ValidationError } from "../errors/domain-errors";

/**
 * Page cursors are the sort key of the last item shown (`FILE#<createdAt>#<fileId>`), base64url.
 * The server always supplies the partition (the caller's own project), so a cursor can only move
 * within what the caller may see; a decoded value that is not exactly that shape is a 400, never
 * a DynamoDB error.
 */
const FILE_SORT_KEY = /^FILE#\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z#[A-Za-z0-9_]{1,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,256}$/;

export function encodeCursor(sortKey: string | undefined): string | null {
  return sortKey === undefined ? null : Buffer.from(sortKey, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  const decoded = BASE64URL.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  if (!FILE_SORT_KEY.test(decoded)) throw new ValidationError([{ field: "cursor", message: "is not a cursor of this list" }]);
  return decoded;
}
