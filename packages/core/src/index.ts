export * from "./errors/domain-errors";
export * from "./ports";
export * from "./ids/random-ids";
export * from "./validation/parse-input";
export * from "./upload/upload.schema";
export * from "./upload/upload-settings";
export * from "./upload/object-key";
export * from "./upload/presign-upload";
export * from "./upload/complete-upload";
export * from "./upload/seal-upload";
export * from "./auth/authenticate";
export * from "./share/resolve-share";
export * from "./keys/create-api-key";
// Table key names are shared with the stack and the local stack, which create the table.
export { tableDefinition } from "./adapters/dynamo/table-keys";
export { contentDisposition } from "./adapters/s3/content-disposition";
export * from "./dashboard";
export * from "./rate-limit/fixed-window";
