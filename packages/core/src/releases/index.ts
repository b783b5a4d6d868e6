export * from "./build-diff";
export * from "./version-order";
export * from "./retention";
export * from "./expiry-warnings";
export * from "./compare-builds";
export * from "./apply-retention";
export * from "./project-storage";
