import { describe, expect, it } from "vitest";
import { accountMailTaskOf } from "@hangar/core/accounts";
import { backgroundTaskOf, backgroundTasks, purgeEventOf } from "../src/composition/background";

describe("one background mechanism for purges and account mails", () => {
  it("tells a task's invocation from an HTTP event by its payload key, and checks the task", () => {
    const mail = { kind: "password-reset", email: "ada@example.com", publicBaseUrl: "https://hangar.example" };
    expect(backgroundTaskOf({ hangarAccountMail: mail }, "hangarAccountMail", accountMailTaskOf)).toEqual(mail);
    expect(backgroundTaskOf({ hangarAccountMail: { ...mail, kind: "drop-table" } }, "hangarAccountMail", accountMailTaskOf)).toBeUndefined();
    expect(backgroundTaskOf({ version: "2.0", rawPath: "/api/account/password-reset", body: JSON.stringify({ hangarAccountMail: mail }) }, "hangarAccountMail", accountMailTaskOf)).toBeUndefined();
    expect(backgroundTaskOf({ hangarPurge: { kind: "project", userId: "usr_1", projectId: "prj_1" } }, "hangarAccountMail", accountMailTaskOf)).toBeUndefined();
    const workspaceId = "ws_0123456789abcdef";
    expect(purgeEventOf({ hangarPurge: { kind: "project", workspaceId, projectId: "prj_1" } })).toEqual({ kind: "project", workspaceId, projectId: "prj_1" });
    // An invocation sent before workspaces names the user: the project is in their personal workspace.
    expect(purgeEventOf({ hangarPurge: { kind: "project", userId: "usr_0123456789abcdef", projectId: "prj_1" } })).toEqual({ kind: "project", workspaceId, projectId: "prj_1" });
    expect(purgeEventOf({ hangarPurge: { kind: "project", workspaceId: "ws_../../x", projectId: "prj_1" } })).toBeUndefined();
    // A whole workspace's delete names the workspace only.
    expect(purgeEventOf({ hangarPurge: { kind: "workspace", workspaceId, projectId: "prj_1" } })).toEqual({ kind: "workspace", workspaceId });
    expect(purgeEventOf({ hangarPurge: { kind: "workspace", workspaceId: "ws_../../x" } })).toBeUndefined();
    expect(purgeEventOf({ hangarPurge: { kind: "workspace" } })).toBeUndefined();
    expect(purgeEventOf({ hangarAccountMail: mail })).toBeUndefined();
  });

  it("off Lambda, runs the task in this process after the caller's turn, not inside it", async () => {
    const ran: string[] = [];
    const tasks = backgroundTasks<string>(undefined, "test", async (task) => void ran.push(task));
    await tasks.schedule("one");
    expect(ran).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["one"]);
  });
});
