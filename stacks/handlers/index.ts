/** SST handler string of the function that deletes objects of expired uploads. */
export const REAPER_HANDLER = "stacks/handlers/reap-expired-uploads.handler.handler";
