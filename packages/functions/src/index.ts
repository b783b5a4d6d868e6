export * from "./routes";
export { Settings, MAX_SINGLE_PUT_BYTES } from "./composition/settings.schema";
