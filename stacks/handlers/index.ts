/** SST handler string of the function that deletes objects of expired uploads. */
export const REAPER_HANDLER = "packages/functions/src/housekeeping/reap-expired-uploads.handler.handler";
/** The SES configuration set's bounce/complaint/reject events, through SNS (api-stack.ts). */
export const SES_EVENTS_HANDLER = "packages/functions/src/mail/ses-events.handler.handler";
/** Every 15 minutes: finishes projects and accounts left in "deleting" (api-stack.ts). */
export const RESUME_DELETES_HANDLER = "packages/functions/src/housekeeping/resume-deletes.handler.handler";
/** The deploy's data migration onto workspaces (an SST Script of the API stack, api-stack.ts). */
export const MIGRATE_WORKSPACES_HANDLER = "packages/functions/src/migrations/workspaces-migration.handler.handler";
/** The build-mail sender, fed by the build-mail queue at SES's rate (api-stack.ts; docs/testers.md). */
export const DISTRIBUTION_MAIL_HANDLER = "packages/functions/src/distribution/distribution-mail.handler.handler";
/** Webhook deliveries, triggered by the webhook queue (api-stack.ts, docs/webhooks.md). */
export const WEBHOOK_DELIVERY_HANDLER = "packages/functions/src/webhooks/deliver.handler.handler";
/** Once a day: retention policies, then expiry warnings (api-stack.ts; docs/release-safety.md). */
export const DAILY_HOUSEKEEPING_HANDLER = "packages/functions/src/housekeeping/daily.handler.handler";
