import { createHmac } from "node:crypto";
import { hashSecret } from "../ids/random-ids";

/**
 * Personal install links (docs/testers.md): `{share}/install/<token>` names one build for one
 * tester, so a download or install start through it counts for that tester without a sign-in.
 *
 * The token is an HMAC of (build, tester) under the stage secret named `install-link`, not a
 * stored random value: the mail, the portal and a re-send all produce the same link for the same
 * pair without keeping the token anywhere, and nobody without the secret can make one. Resolving a
 * token is one GetItem of `installLink(sha256(token))`, written when the build is first sent to the
 * tester (a token with no item names nothing: 404). 32 bytes of MAC, base64url: 43 characters.
 */
export const INSTALL_LINK_SECRET = "install-link";

export function installLinkToken(secret: Uint8Array, fileId: string, email: string): string {
  return createHmac("sha256", secret).update(`${fileId}\n${email}`, "utf8").digest("base64url");
}

/** Hex SHA-256 of a token: the key of its `installLink` item (the token itself is never stored). */
export const installLinkHash: (token: string) => string = hashSecret;

/** A token's shape: 43 base64url characters. Anything else is a 404 without a read. */
export const INSTALL_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The personal install page of a build for a tester, on the share host. */
export const installLinkUrl = (shareBaseUrl: string, token: string): string => `${shareBaseUrl.replace(/\/+$/, "")}/install/${token}`;
