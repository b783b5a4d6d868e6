// Tester access (issue 20, docs/testers.md "Tester sign-in and the portal API"): magic links,
// tester sessions, the join flow of invite links, and the portal's reads. Node code allowed here;
// the web app imports the browser-safe half, `@hangar/core/tester-access-schema`.
export * from "./tester-access.schema";
export * from "./tester-access-input";
export * from "./tester-access-errors";
export * from "./tester-access-deps";
export * from "./tester-mail-task";
export * from "./tester-sessions";
export * from "./tester-portal";
export * from "./mail/tester-mails";
export * from "./tester-access.dynamo";
