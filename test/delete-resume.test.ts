import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { budgetOf, deleteProject, deleteWorkspace, randomIds, systemClock, type DeleteWorkspaceDeps } from "@hangar/core";
import {
  DynamoAuditLog,
  DynamoFileCatalog,
  DynamoKeyCatalog,
  DynamoPendingDeletes,
  DynamoProjectCatalog,
  DynamoStageSecret,
  DynamoUsage,
  DynamoUserRepository,
  DynamoWorkspaceCatalog,
} from "@hangar/core/dynamo";
import { S3ObjectPurger } from "@hangar/core/s3-purger";
import { S3Requester } from "@hangar/core/s3-rest";
import { describe, expect, it } from "vitest";
import { call, db, stack } from "./support/api";
import { dash, signedIn } from "./support/accounts";
import { eventually, itemsMentioning, newDashboardKey, newProject, uploadIpa, versionsUnder, withoutLinkTraces } from "./support/dashboard";
import { addMember, member, newWorkspace } from "./support/workspaces";

/**
 * A project delete whose background step dies half way (here: the very purge code the service
 * runs, against the stack's DynamoDB Local and object store, with a purger that is killed after
 * its first page) is finished by the stack's resume-deletes sweep (global-setup runs it every
 * 2 s), once its progress is older than the bound. The marker is aged by hand: the bound is 15
 * minutes, which no test waits for.
 */
function serviceDeps(dieAfterPages: number): DeleteWorkspaceDeps {
  const s = stack();
  const table = s.tableName;
  const purger = new S3ObjectPurger(new S3Requester({ bucket: s.bucketName, region: s.region, endpoint: s.s3Endpoint, credentials: s.credentials }));
  let pages = 0;
  const unused = () => Promise.reject(new Error("not used by a purge"));
  return {
    projects: new DynamoProjectCatalog(db(), table),
    keys: new DynamoKeyCatalog(db(), table),
    files: new DynamoFileCatalog(db(), table),
    usage: new DynamoUsage(db(), table),
    objects: {
      purgePrefix: async (prefix) => {
        if (pages++ >= dieAfterPages) throw new Error("the background step was killed");
        return purger.purgePrefix(prefix);
      },
    },
    signer: { presignPut: unused, presignGet: unused },
    background: { schedule: async () => undefined },
    pendingDeletes: new DynamoPendingDeletes(db(), table),
    cursorSecret: new DynamoStageSecret(db(), table, "cursor"),
    workspaces: new DynamoWorkspaceCatalog(db(), table),
    users: new DynamoUserRepository(db(), table),
    audit: new DynamoAuditLog(db(), table, () => systemClock.now()),
    clock: systemClock,
    ids: randomIds,
  };
}

describe("a delete whose background run was lost", () => {
  it("is picked up by the sweep and finished: project gone, its objects gone from the store, its links 410", async () => {
    const { b } = await signedIn();
    const project = await newProject(b, "Half deleted");
    const key = await newDashboardKey(b, project.projectId);
    const files = [await uploadIpa(key, "One.ipa"), await uploadIpa(key, "Two.ipa")];
    const userId = (await dash(b, "GET", "/api/account")).json.userId as string;
    expect((await versionsUnder(`uploads/${project.projectId}/`)).length).toBeGreaterThan(0);

    // The file records go first, then objects page by page: the purger dies on its first page.
    const deps = serviceDeps(0);
    await expect(
      deleteProject(deps, { userId }, { projectId: project.projectId, confirmName: "Half deleted" }, budgetOf(systemClock, 60_000)),
    ).rejects.toThrow("killed");
    expect((await dash(b, "GET", `/api/projects/${project.projectId}`)).json.status).toBe("deleting");
    expect((await versionsUnder(`uploads/${project.projectId}/`)).length).toBeGreaterThan(0);

    // No progress for an hour, as after a lost background run.
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: "DELETING", sk: `PROJECT#${project.projectId}` },
        UpdateExpression: "SET progressAt = :old",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":old": new Date(Date.now() - 3600_000).toISOString() },
      }),
    );

    await eventually(async () => (await dash(b, "GET", `/api/projects/${project.projectId}`)).status === 404, "the sweep finishes the delete");
    expect(await versionsUnder(`uploads/${project.projectId}/`)).toEqual([]);
    for (const file of files) {
      const share = await call(`/share/${file.userKey}`);
      expect(share.status).toBe(410);
      expect(share.json.error.code).toBe("file_removed");
      expect((await call(`/download/${file.userKey}`)).status).toBe(410);
    }
  });

  it("a workspace delete killed half way is finished by the sweep too: the workspace, its members and projects gone", async () => {
    const owner = await member();
    const colleague = await member();
    const team = await newWorkspace(owner.b, "Half deleted team");
    await addMember(team.workspaceId, colleague.userId, "viewer");
    const created = await dash(owner.b, "POST", "/api/projects", { name: "Team app", color: "red", workspaceId: team.workspaceId });
    expect(created.status, created.text).toBe(201);
    const projectId = created.json.projectId as string;
    const key = await newDashboardKey(owner.b, projectId);
    const build = await uploadIpa(key, "Team.ipa");

    await expect(
      deleteWorkspace(serviceDeps(0), { userId: owner.userId }, { workspaceId: team.workspaceId, confirmName: "Half deleted team" }, budgetOf(systemClock, 60_000)),
    ).rejects.toThrow("killed");
    // Marked deleting before the purge began: nobody reaches it, though its items are still there.
    expect((await dash(colleague.b, "GET", `/api/workspaces/${team.workspaceId}`)).status).toBe(404);
    expect((await versionsUnder(`uploads/${projectId}/`)).length).toBeGreaterThan(0);

    // No progress for an hour on the workspace's marker (and its project's), as after a lost background run.
    for (const sk of [`WORKSPACE#${team.workspaceId}`, `PROJECT#${projectId}`]) {
      await db().send(
        new UpdateCommand({
          TableName: stack().tableName,
          Key: { pk: "DELETING", sk },
          UpdateExpression: "SET progressAt = :old",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":old": new Date(Date.now() - 3600_000).toISOString() },
        }),
      );
    }

    await eventually(async () => withoutLinkTraces(await itemsMentioning(team.workspaceId, projectId)).length === 0, "the sweep finishes the workspace delete");
    expect(await versionsUnder(`uploads/${projectId}/`)).toEqual([]);
    expect((await call(`/share/${build.userKey}`)).status).toBe(410);
  });
});
