import { NotFoundError } from "../errors/domain-errors";

/** The webhooks' 404s, apart from the use cases so route-input/ (every function's bundle) imports no use case. */
export const webhookNotFound = () => new NotFoundError("webhook_not_found", "No webhook with this id in your workspaces");
export const deliveryNotFound = () => new NotFoundError("delivery_not_found", "No delivery with this id for this webhook (deliveries are kept 30 days)");
