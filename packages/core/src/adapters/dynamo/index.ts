export * from "./table-keys";
export * from "./api-key-repository.dynamo";
export * from "./project-repository.dynamo";
export * from "./file-repository.dynamo";
export * from "./rate-limiter.dynamo";
