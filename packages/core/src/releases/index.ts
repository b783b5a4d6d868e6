export * from "./build-diff";
export * from "./version-order";
export * from "./retention";
export * from "./expiry-warnings";
export * from "./compare-builds";
export * from "./expiry-mail";
export * from "./expiry-run";
export * from "./expiring.schema";
