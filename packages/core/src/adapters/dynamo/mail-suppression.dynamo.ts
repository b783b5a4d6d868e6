import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { MailSuppression, MailSuppressionRepository, SuppressionReason } from "../../ports";
import { dynamoFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * Suppressed addresses as `SUPPRESSED#<address>` items (docs/data-model.md), one GetItem before
 * every mail. No TTL: an address that bounced stays suppressed until an operator deletes the item
 * (SES's own account-level suppression list works the same way).
 */
export class DynamoMailSuppressions implements MailSuppressionRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async get(email: string): Promise<MailSuppression | undefined> {
    try {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.suppression(email) }));
      if (!Item) return undefined;
      return { email: Item.email, reason: Item.reason, since: Item.since, lastEventAt: Item.lastEventAt };
    } catch (error) {
      throw dynamoFailure("GetItem(suppression)", error);
    }
  }

  async record(email: string, reason: SuppressionReason, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.suppression(email),
          // The first event's time stays (the account page's "bounced on"); the reason is the latest event's.
          UpdateExpression: "SET #type = :type, email = :email, since = if_not_exists(since, :at), lastEventAt = :at, reason = :reason",
          ExpressionAttributeNames: { "#type": "type" },
          ExpressionAttributeValues: { ":type": "mailSuppression", ":email": email, ":at": at, ":reason": reason },
        }),
      );
    } catch (error) {
      throw dynamoFailure("UpdateItem(suppression)", error);
    }
  }
}
