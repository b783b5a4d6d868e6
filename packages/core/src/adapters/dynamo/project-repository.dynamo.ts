import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors/domain-errors";
import type { Project, ProjectRepository, User } from "../../ports";
import { createCountedProject } from "./counted-limits.dynamo";
import { cancelledConditions, dynamoFailure, getItem } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

export class DynamoProjectRepository implements ProjectRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async getUserByEmail(email: string): Promise<User | undefined> {
    const link = await getItem(this.db, this.tableName, keys.email(email), "e-mail");
    if (!link) return undefined;
    const user = await getItem(this.db, this.tableName, keys.user(link.userId), "user");
    return user ? { userId: user.userId, email: user.email, createdAt: user.createdAt } : undefined;
  }

  async createUser(user: User & { passwordHash?: string }): Promise<void> {
    await this.uniqueTransaction("user", [
      { ...keys.user(user.userId), type: "user", ...user },
      { ...keys.email(user.email), type: "email", userId: user.userId },
    ]);
  }

  async findProjectByName(workspaceId: string, name: string): Promise<Project | undefined> {
    const link = await getItem(this.db, this.tableName, keys.projectName(workspaceId, name), "project name");
    if (!link) return undefined;
    const project = await getItem(this.db, this.tableName, keys.project(workspaceId, link.projectId), "project");
    if (!project) return undefined;
    const { projectId, userId, description, color, createdAt } = project;
    return { projectId, workspaceId, userId, name: project.name, description, color, createdAt };
  }

  /** Counted against the workspace's limit like a dashboard create (counted-limits.dynamo.ts). */
  async createProject(project: Project): Promise<void> {
    await createCountedProject(this.db, this.tableName, project.workspaceId, {
      project: {
        ...keys.project(project.workspaceId, project.projectId),
        type: "project",
        gsi1pk: gsi1.project(project.projectId),
        gsi1sk: "PROJECT",
        ...project,
      },
      name: { ...keys.projectName(project.workspaceId, project.name), type: "projectName", projectId: project.projectId },
    });
  }

  /** Puts the entity and its uniqueness item together, or neither. */
  private async uniqueTransaction(what: string, items: Record<string, unknown>[]): Promise<void> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: items.map((Item) => ({
            Put: { TableName: this.tableName, Item, ConditionExpression: "attribute_not_exists(pk)" },
          })),
        }),
      );
    } catch (error) {
      if (cancelledConditions(error)?.some(Boolean)) throw new ConflictError("already_exists", `This ${what} exists already`);
      throw dynamoFailure(`TransactWriteItems(${what})`, error);
    }
  }
}
