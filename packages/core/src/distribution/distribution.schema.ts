// Issue 20: browser-safe schemas and answer types of distribution (imported by the web app; no node imports).
import * as z from "zod/mini";
import { LONE_SURROGATE } from "../validation/unicode";

/** At most this many group refs, and this many addresses, in one distribution (a group holds at most 1,000). */
export const MAX_DISTRIBUTE_GROUPS = 100;
export const MAX_DISTRIBUTE_TESTERS = 1000;
/** The uploader's message to the testers, shown in the mail and in the portal. */
export const MAX_DISTRIBUTE_MESSAGE = 1000;

// Controls other than line breaks and tabs have no place in a message that ends up in a mail.
const MESSAGE_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A group ref: its id (`grp_…`) or its name (any case), as `--groups qa,beta` names them. */
const GroupRef = z.string().check(z.minLength(1, "must not be empty"), z.maxLength(120, "is not a group id or name"));
/**
 * A tester address as typed. Normalized and checked by the use case (accounts' rules), so the
 * same bound holds for the API and for complete's optional `distribute`, and a bad address is
 * named in a 400 instead of silently skipped.
 */
const TesterAddress = z.string().check(z.maxLength(1020, "is not an e-mail address"));

const Message = z.pipe(
  z.string().check(z.refine((s) => !LONE_SURROGATE.test(s), { error: "must be well-formed Unicode", abort: true })),
  z.transform((s) => s.trim().normalize("NFC")),
).check(
  z.maxLength(MAX_DISTRIBUTE_MESSAGE, `must be at most ${MAX_DISTRIBUTE_MESSAGE} characters`),
  z.refine((s) => !MESSAGE_CONTROLS.test(s), "must not contain control characters"),
);

/** The body of `POST /api/files/{fileId}/distribute`, and complete's optional `distribute`. */
export const DistributeInput = z.object({
  groups: z._default(z.array(GroupRef).check(z.maxLength(MAX_DISTRIBUTE_GROUPS, `must name at most ${MAX_DISTRIBUTE_GROUPS} groups`)), []),
  testers: z._default(z.array(TesterAddress).check(z.maxLength(MAX_DISTRIBUTE_TESTERS, `must name at most ${MAX_DISTRIBUTE_TESTERS} addresses`)), []),
  notify: z._default(z.boolean(), true),
  message: z.optional(z.nullable(Message)),
});
export type DistributeInput = z.infer<typeof DistributeInput>;

/** `PUT /api/projects/{projectId}/default-groups`: group ids (or names) every completed upload is sent to. */
export const DefaultGroupsInput = z.object({
  groupIds: z.array(GroupRef).check(z.maxLength(MAX_DISTRIBUTE_GROUPS, `must name at most ${MAX_DISTRIBUTE_GROUPS} groups`)),
});
export type DefaultGroupsInput = z.infer<typeof DefaultGroupsInput>;

/** `/unsubscribe/{token}`: any string up to a bound; the use case checks its MAC. */
export const UnsubscribeRef = z.object({ token: z.string().check(z.maxLength(400, "is not an unsubscribe token")) });
export type UnsubscribeRef = z.infer<typeof UnsubscribeRef>;

/**
 * What became of one tester's copy of a build: `queued` (waiting for the sender), `sending`
 * (claimed by the sender under a lease), `sent`, `suppressed` (the address bounced or complained),
 * `unsubscribed` (the tester opted out of this project's build mail), `capped` (the workspace's
 * daily build-mail cap was reached), `failed` (the sender gave up after its retries) and `silent`
 * (distributed with `notify: false`: in the portal, no mail).
 */
export type RecipientStatus = "queued" | "sending" | "sent" | "suppressed" | "unsubscribed" | "capped" | "failed" | "silent";

/** The answer of a distribute (202), and of complete's `distribution`. */
export interface DistributionAnswer {
  distributionId: string;
  /** Distinct addresses the distribution named (groups' members and explicit testers). */
  recipients: number;
  /** New mails queued by it (a tester who already has this build gets no second one). */
  queued: number;
  /** Of the new recipients, how many got no mail because the workspace's daily cap was reached. */
  capped: number;
}

export interface DistributionView {
  distributionId: string;
  createdAt: string;
  createdBy: { userId: string; email: string | null } | { clientId: string };
  groups: { groupId: string; name: string }[];
  testers: string[];
  message: string | null;
  notify: boolean;
  recipients: number;
}

/** `GET /api/files/{fileId}/distributions`. */
export interface DistributionsAnswer {
  items: DistributionView[];
  recipients: { email: string; status: RecipientStatus; sentAt: string | null }[];
}

/** `GET|PUT /api/projects/{projectId}/default-groups`. */
export interface DefaultGroupsAnswer {
  groupIds: string[];
}
