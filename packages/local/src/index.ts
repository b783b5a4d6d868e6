export { startLocalStack, LOCAL_CREDENTIALS, LOCAL_REGION, stackInfoPath } from "./local-stack";
export type { LocalStack, LocalStackInfo, LocalStackOptions } from "./local-stack";
export { mintApiKey, mintLocalApiKey } from "./keys/mint-api-key";
export { startObjectStore } from "./object-store";
