// Issue 20 (docs/testers.md "Groups"): tester groups, their invite links and the directory distribution reads.
export * from "./tester-groups.schema";
export * from "./tester-group-errors";
export * from "./tester-group-store";
export * from "./tester-group-deps";
export * from "./manage-groups";
export * from "./join-link";
export { DynamoTesterGroups } from "./tester-groups.dynamo";
