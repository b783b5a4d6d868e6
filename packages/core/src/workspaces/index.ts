export * from "./roles";
export * from "./workspace-ids";
export * from "./workspace-errors";
export * from "./access";
export * from "./actor";
export * from "./limits";
export * from "./personal";
export * from "./new-workspace-id";
