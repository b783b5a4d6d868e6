/** SST handler string of the function that deletes objects of expired uploads. */
export const REAPER_HANDLER = "packages/functions/src/housekeeping/reap-expired-uploads.handler.handler";
