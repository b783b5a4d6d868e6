export { inspectIpa } from "./inspect-ipa";
export { APP_INFO_PLIST, findAppInfoPlists } from "./ipa-bundle";
