import { authenticateSession, defaultAccountSettings, ScryptPasswordHasher } from "@hangar/core/accounts";
import { DynamoAuditLog, DynamoFileRepository, DynamoProjectCatalog, DynamoSessionRepository, DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { ShareSettings, updateShareSettings } from "@hangar/core/links";
import { DynamoShareLinks } from "@hangar/core/links-dynamo";
import { NotFoundError, randomIds, systemClock } from "@hangar/core";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { db, stack, type Key } from "./support/api";
import { newDashboardKey, newProject, uploadIpa } from "./support/dashboard";
import { countingClient } from "./support/round-trips";

/**
 * PATCH /api/files/{fileId}/share waits for at most three DynamoDB round trips one after another
 * (issue 18): the session, the file, then the write (with the membership's condition and the
 * audit entry in it, issue 19) beside reads of the link and the membership. The request's
 * storage path (session auth and the use case) runs here on a client that records each call's
 * depth, against the stack's DynamoDB Local, so a change that adds a sequential read fails.
 */
const MAX_SEQUENTIAL = 3;
const BASES = { publicBaseUrl: "https://hangar.test", shareBaseUrl: "https://hangar.test" };

let owner: Browser;
let stranger: Browser;
let key: Key;

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  ({ b: stranger } = await signedIn());
  const { projectId } = await newProject(owner);
  key = await newDashboardKey(owner, projectId);
});

/** The PATCH's storage path as the links function runs it, on a counting client. */
async function patchShare(b: Browser, fileId: string, body: unknown) {
  const counted = countingClient(db());
  const table = stack().tableName;
  const token = decodeURIComponent(b.cookie!.slice(b.cookie!.indexOf("=") + 1));
  const deps = {
    files: new DynamoFileRepository(counted.client, table),
    projects: new DynamoProjectCatalog(counted.client, table),
    workspaces: new DynamoWorkspaceCatalog(counted.client, table),
    links: new DynamoShareLinks(counted.client, table),
    audit: new DynamoAuditLog(counted.client, table, () => systemClock.now()),
    hasher: new ScryptPasswordHasher(),
    clock: systemClock,
    ids: randomIds,
  };
  const outcome = await authenticateSession({ sessions: new DynamoSessionRepository(counted.client, table), clock: systemClock, settings: defaultAccountSettings }, token)
    .then((session) => updateShareSettings(deps, { userId: session.userId }, { fileId, ...ShareSettings.parse(body) }, BASES))
    .then(
      (view) => ({ view, error: undefined }),
      (error: unknown) => ({ view: undefined, error: error as Error }),
    );
  return { ...outcome, depth: counted.depth(), calls: counted.calls() };
}

describe("PATCH /api/files/{fileId}/share round trips", () => {
  it(`changes every setting in at most ${MAX_SEQUENTIAL} sequential round trips, answering what is stored`, async () => {
    const file = await uploadIpa(key);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const out = await patchShare(owner, file.fileId, { enabled: false, maxDownloads: 5, expiresAt, password: "open sesame 42" });
    expect(out.error).toBeUndefined();
    expect(out.depth, out.calls.join(", ")).toBeLessThanOrEqual(MAX_SEQUENTIAL);
    expect(out.view).toMatchObject({ userKey: file.userKey, enabled: false, maxDownloads: 5, expiresAt, hasPassword: true, state: "disabled" });
    // The answer is what a later read of the file shows.
    const page = await dash(owner, "GET", `/api/files/${file.fileId}`);
    expect(page.status).toBe(200);
    expect(page.json.share).toMatchObject({ enabled: false, maxDownloads: 5, expiresAt, hasPassword: true, state: "disabled" });

    const cleared = await patchShare(owner, file.fileId, { enabled: true, maxDownloads: null, expiresAt: null, password: null });
    expect(cleared.depth, cleared.calls.join(", ")).toBeLessThanOrEqual(MAX_SEQUENTIAL);
    expect(cleared.view).toMatchObject({ enabled: true, maxDownloads: null, expiresAt: null, hasPassword: false, state: "open" });
  });

  it("an empty change and another account's file cost no more", async () => {
    const file = await uploadIpa(key);
    const same = await patchShare(owner, file.fileId, {});
    expect(same.depth, same.calls.join(", ")).toBeLessThanOrEqual(MAX_SEQUENTIAL);
    expect(same.view).toMatchObject({ enabled: true, state: "open", hasPassword: false });

    const foreign = await patchShare(stranger, file.fileId, { enabled: false });
    expect(foreign.depth, foreign.calls.join(", ")).toBeLessThanOrEqual(MAX_SEQUENTIAL);
    expect(foreign.error).toBeInstanceOf(NotFoundError);
    expect((foreign.error as NotFoundError).code).toBe("file_not_found");
    // Nothing changed for the owner.
    expect((await dash(owner, "GET", `/api/files/${file.fileId}`)).json.share).toMatchObject({ enabled: true, state: "open" });
  });
});
