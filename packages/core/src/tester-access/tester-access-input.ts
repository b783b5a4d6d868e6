import * as z from "zod/mini";
import { Email } from "../accounts/account.schema";
import { Token } from "../accounts/account-input.schema";

/**
 * The request bodies that carry an address, as the server parses them: accounts' `Email`
 * normalizes it (trimmed, lower case, a Unicode domain in punycode), so every tester item and
 * rate-limit subject uses one spelling of an address. Node code (`Email` uses node:url): the form
 * schemas of the tester pages are in tester-access.schema.ts.
 */
export const TesterSignIn = z.object({ email: Email });
export type TesterSignIn = z.infer<typeof TesterSignIn>;

/** `POST /api/join {token, email}`: the invite link's token and the address to confirm. */
export const JoinRequest = z.object({ token: Token, email: Email });
export type JoinRequest = z.infer<typeof JoinRequest>;
