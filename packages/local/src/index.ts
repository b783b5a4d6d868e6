export { startLocalStack, LOCAL_CREDENTIALS, LOCAL_REGION, stackInfoPath, freeBasePort, portIsFree, PortInUseError } from "./local-stack";
export { StackLockedError } from "./stack-lock";
export type { LocalStack, LocalStackInfo, LocalStackOptions } from "./local-stack";
export { mintApiKey, mintLocalApiKey } from "./keys/mint-api-key";
export { startObjectStore } from "./object-store";
export { runDailyHousekeeping } from "./housekeeping/daily-housekeeping";
