export * from "./clock.port";
export * from "./api-key-repository.port";
export * from "./project-repository.port";
export * from "./rate-limiter.port";
export * from "./file-repository.port";
export * from "./object-storage.port";
export * from "./package-inspector.port";
