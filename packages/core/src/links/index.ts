export * from "./share-link.port";
export * from "./link-access";
export * from "./link.schema";
export * from "./manage-link";
export * from "./link-password";
