import { Logger } from "@aws-lambda-powertools/logger";

/**
 * One structured JSON logger for every function. The level comes from the environment
 * (`POWERTOOLS_LOG_LEVEL`, or Lambda's own `AWS_LAMBDA_LOG_LEVEL`), so a stage can be made
 * chattier without a code change.
 */
export const logger = new Logger({ serviceName: "hangar" });
