export * from "./routes";
export { Settings, MAX_SINGLE_PUT_BYTES } from "./composition/settings.schema";
export { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER } from "./composition/link-bases";
export { CLI_PACKAGE_FILES } from "./cli/cli-package";
export { BUILD_MAIL_MAX_RECEIVES, BUILD_MAIL_TIMEOUT_SECONDS, buildMailPace } from "./distribution/build-mail-pace";
