import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors/domain-errors";
import type { Project, ProjectRepository, User } from "../../ports";
import { cancelledConditions, dynamoFailure } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";

export class DynamoProjectRepository implements ProjectRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getUserByEmail(email: string): Promise<User | undefined> {
    try {
      const { Item: link } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.email(email) }));
      if (!link) return undefined;
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.user(link.userId) }));
      return Item ? { userId: Item.userId, email: Item.email, createdAt: Item.createdAt } : undefined;
    } catch (error) {
      throw dynamoFailure("GetItem(user)", error);
    }
  }

  async createUser(user: User & { passwordHash?: string }): Promise<void> {
    await this.uniqueTransaction("user", [
      { ...keys.user(user.userId), type: "user", ...user },
      { ...keys.email(user.email), type: "email", userId: user.userId },
    ]);
  }

  async findProjectByName(userId: string, name: string): Promise<Project | undefined> {
    try {
      const { Item: link } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: keys.projectName(userId, name) }),
      );
      if (!link) return undefined;
      const { Item } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: keys.project(userId, link.projectId) }),
      );
      if (!Item) return undefined;
      const { projectId, description, color, createdAt } = Item;
      return { projectId, userId, name: Item.name, description, color, createdAt };
    } catch (error) {
      throw dynamoFailure("GetItem(project)", error);
    }
  }

  async createProject(project: Project): Promise<void> {
    await this.uniqueTransaction("project", [
      {
        ...keys.project(project.userId, project.projectId),
        type: "project",
        gsi1pk: gsi1.project(project.projectId),
        gsi1sk: "PROJECT",
        ...project,
      },
      { ...keys.projectName(project.userId, project.name), type: "projectName", projectId: project.projectId },
    ]);
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
