export { startObjectStore, type ObjectStoreOptions, type RunningObjectStore } from "./start-object-store";
