export { logger } from "./logger";
export { metrics, record, flushMetrics, metricsEnabled, metricsAreEnabled } from "./metrics";
export { observability, requestLogKeys } from "./observability.middleware";
