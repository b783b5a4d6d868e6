export * from "./share-link.port";
export * from "./link-access";
export * from "./link.schema";
export * from "./manage-link";
export * from "./link-password";
export * from "./link-errors";
export * from "./install-offer";
export * from "./visit-link";
