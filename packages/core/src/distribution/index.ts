// Issue 20 (docs/testers.md "Distribution and build mail"): sending builds to testers and the build mail.
export * from "./distribution.schema";
export * from "./distribution.port";
export * from "./distribution-errors";
export * from "./distribute-build";
export * from "./build-mail";
export * from "./deliver-build-mail";
export * from "./unsubscribe";
export { DynamoDistributions } from "./distributions.dynamo";
export { DynamoGroupDirectory } from "./group-directory.dynamo";
