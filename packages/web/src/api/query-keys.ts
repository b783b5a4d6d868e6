/**
 * Every key of the query cache, by resource: the one place that says what is cached under which
 * name, so a mutation invalidates by prefix (`queryKeys.projects.all` covers the list, each
 * project and each project's files) and no page passes a `reload` to another.
 */
export const queryKeys = {
  /** Who is signed in (`GET /api/account`): the app's session state lives in the cache too. */
  session: ["session"] as const,
  sessions: ["account", "sessions"] as const,
  projects: {
    all: ["projects"] as const,
    list: () => [...queryKeys.projects.all, "list"] as const,
    detail: (projectId: string) => [...queryKeys.projects.all, "detail", projectId] as const,
    files: (projectId: string) => [...queryKeys.projects.all, "detail", projectId, "files"] as const,
  },
  files: {
    all: ["files"] as const,
    latest: () => [...queryKeys.files.all, "latest"] as const,
    detail: (fileId: string) => [...queryKeys.files.all, "detail", fileId] as const,
  },
  keys: {
    all: ["keys"] as const,
    list: () => [...queryKeys.keys.all, "list"] as const,
    usage: (clientId: string) => [...queryKeys.keys.all, "usage", clientId] as const,
  },
};
