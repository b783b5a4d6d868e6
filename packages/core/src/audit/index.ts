export * from "./user-agent-family";
export * from "./audit-actor";
export * from "./audit.schema";
export * from "./list-audit";
