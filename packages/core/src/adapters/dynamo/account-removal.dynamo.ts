import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { cancelledConditions, dynamoFailure, getItem } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * Removes a user and its e-mail uniqueness item together, so the address can sign up again.
 * The e-mail item goes only while it still names this user.
 */
export class DynamoAccountRemoval {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async removeUser(userId: string): Promise<void> {
    const user = await getItem(this.db, this.tableName, keys.user(userId), "user", { consistent: true });
    if (!user) return;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: keys.user(userId) } },
            {
              Delete: {
                TableName: this.tableName,
                Key: keys.email(String(user.email)),
                ConditionExpression: "attribute_not_exists(pk) OR userId = :userId",
                ExpressionAttributeValues: { ":userId": userId },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (cancelledConditions(error)?.[1]) return;
      throw dynamoFailure("TransactWriteItems(remove user)", error);
    }
  }
}
