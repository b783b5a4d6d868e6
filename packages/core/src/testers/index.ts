export type { TesterSession, UpdateGrant } from "./tester-context";
export { INSTALL_LINK_SECRET, INSTALL_LINK_TOKEN, installLinkHash, installLinkToken, installLinkUrl } from "./install-link";
