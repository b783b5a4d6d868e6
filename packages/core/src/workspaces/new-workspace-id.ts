import { randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new (not personal) workspace's id: `ws_` + 16 uniform base62 characters (workspace-ids.ts). */
export function newWorkspaceId(): string {
  let out = "ws_";
  for (let i = 0; i < 16; i++) out += BASE62[randomInt(62)];
  return out;
}
