export * from "./roles";
export * from "./workspace-ids";
export * from "./workspace-errors";
export * from "./access";
export * from "./actor";
export * from "./project-access";
