export { logger } from "./logger";
export { metrics, record, flushMetrics, configureMetrics, metricsEnabled, metricsAreEnabled, setMetricsEnabled, type MetricsSwitches } from "./metrics";
export { observability, requestLogKeys, setRequestLines } from "./observability.middleware";
