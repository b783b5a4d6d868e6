import { DynamoShareLinks } from "@hangar/core/links-dynamo";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { db, stack, type Key } from "./support/api";
import { newDashboardKey, newProject, uploadIpa } from "./support/dashboard";

/**
 * The share-link adapter against DynamoDB Local, at the moments HTTP cannot reach: between the
 * gate's read and the counting update, the owner may turn the link off, raise no cap, regenerate
 * it or delete the build. A refused download must name what happened, as of the refusal.
 */
let owner: Browser;
let key: Key;
const TODAY = new Date().toISOString().slice(0, 10);
const links = () => new DynamoShareLinks(db(), stack().tableName);

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  const { projectId } = await newProject(owner);
  key = await newDashboardKey(owner, projectId);
});

describe("countDownload says why it refused", () => {
  it("counted, then disabled, then capped, then replaced, then removed", async () => {
    const file = await uploadIpa(key);
    expect(await links().countDownload(file.userKey, TODAY)).toBe("counted");

    expect(await links().update(file.userKey, { enabled: false })).toBe(true);
    expect(await links().countDownload(file.userKey, TODAY)).toBe("disabled");

    expect(await links().update(file.userKey, { enabled: true, maxDownloads: 1 })).toBe(true);
    expect(await links().countDownload(file.userKey, TODAY)).toBe("capped");
    expect((await links().get(file.userKey))!.downloads).toBe(1);

    const regenerated = await dash(owner, "POST", `/api/files/${file.fileId}/share/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(await links().countDownload(file.userKey, TODAY)).toBe("replaced");
    expect(await links().find(file.userKey)).toEqual({ userKey: file.userKey, ended: "replaced" });
    // Nothing can revive or count onto the trace.
    expect(await links().update(file.userKey, { enabled: true })).toBe(false);
    await links().countInstall(file.userKey, TODAY);
    expect(await links().get(file.userKey)).toBeUndefined();

    const newKey = regenerated.json.userKey as string;
    expect((await dash(owner, "DELETE", `/api/files/${file.fileId}`)).status).toBe(204);
    expect(await links().countDownload(newKey, TODAY)).toBe("removed");
    expect(await links().find(newKey)).toEqual({ userKey: newKey, ended: "removed" });
    // A key never handed out is nothing at all.
    expect(await links().find("NeverHandedOut1")).toBeUndefined();
  });
});
