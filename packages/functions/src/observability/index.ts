export { logger } from "./logger";
export { metrics, record, flushMetrics, metricsEnabled, metricsAreEnabled, setMetricsEnabled, type MetricsSwitches } from "./metrics";
export { observability, requestLogKeys } from "./observability.middleware";
