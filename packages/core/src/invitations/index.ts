export * from "./invitation.schema";
export * from "./invitation-errors";
export * from "./invitation-deps";
export * from "./invitation-settings";
export * from "./manage-invitations";
export * from "./accept-invitation";
export * from "./mail/invitation-mail";
