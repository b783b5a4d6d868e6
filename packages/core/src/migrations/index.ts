// The deploy's data migrations (run in this order by the migration Script and by the local stack
// before it serves): projects onto workspaces, then every project's storage counted.
export * from "./workspaces.migration";
export * from "./storage.migration";
