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
    /** Every workspace's project list (a prefix); `list(workspaceId)` is one workspace's. */
    lists: () => [...queryKeys.projects.all, "list"] as const,
    list: (workspaceId: string) => [...queryKeys.projects.lists(), workspaceId] as const,
    detail: (projectId: string) => [...queryKeys.projects.all, "detail", projectId] as const,
    files: (projectId: string) => [...queryKeys.projects.all, "detail", projectId, "files"] as const,
    /** Issue 20's project settings: the groups every upload goes to, the public app page, update tokens. */
    defaultGroups: (projectId: string) => [...queryKeys.projects.all, "detail", projectId, "default-groups"] as const,
    appPage: (projectId: string) => [...queryKeys.projects.all, "detail", projectId, "app-page"] as const,
    updateTokens: (projectId: string) => [...queryKeys.projects.all, "detail", projectId, "update-tokens"] as const,
  },
  files: {
    all: ["files"] as const,
    latest: (workspaceId: string) => [...queryKeys.files.all, "latest", workspaceId] as const,
    detail: (fileId: string) => [...queryKeys.files.all, "detail", fileId] as const,
    /** Issue 24: the latest builds whose profile or link expires soon (under `files`: a new build or link change refetches it). */
    expiring: (workspaceId: string) => [...queryKeys.files.all, "expiring", workspaceId] as const,
  },
  keys: {
    all: ["keys"] as const,
    list: (workspaceId: string) => [...queryKeys.keys.all, "list", workspaceId] as const,
    usage: (clientId: string) => [...queryKeys.keys.all, "usage", clientId] as const,
  },
  /**
   * Testers (issue 20): one prefix, since a change to a group shows in the workspace's tester list,
   * a tester's page and a build's recipients alike, and testers are few enough to refetch them all.
   */
  testers: {
    all: ["testers"] as const,
    groups: (workspaceId: string) => [...queryKeys.testers.all, "groups", workspaceId] as const,
    group: (groupId: string) => [...queryKeys.testers.all, "group", groupId] as const,
    people: (workspaceId: string) => [...queryKeys.testers.all, "people", workspaceId] as const,
    installs: (workspaceId: string, email: string) => [...queryKeys.testers.all, "installs", workspaceId, email] as const,
    /** A build's distributions with their recipients, and its per-tester installs. */
    distributions: (fileId: string) => [...queryKeys.testers.all, "distributions", fileId] as const,
    fileInstalls: (fileId: string) => [...queryKeys.testers.all, "file-installs", fileId] as const,
  },
  /** iOS devices (issue 22): a workspace's devices, and a build's profile against them (one prefix: a change shows in both). */
  devices: {
    all: ["devices"] as const,
    list: (workspaceId: string) => [...queryKeys.devices.all, "list", workspaceId] as const,
    ofFile: (fileId: string) => [...queryKeys.devices.all, "file", fileId] as const,
  },
  /** An invitation as its mailed link shows it, before anyone accepts it. */
  invitationPreview: (token: string) => ["invitation", token] as const,
  /** Teams (issue 19): the caller's workspaces, and each one's members, invitations and audit log. */
  workspaces: {
    all: ["workspaces"] as const,
    list: () => [...queryKeys.workspaces.all, "list"] as const,
    detail: (workspaceId: string) => [...queryKeys.workspaces.all, "detail", workspaceId] as const,
    members: (workspaceId: string) => [...queryKeys.workspaces.all, "detail", workspaceId, "members"] as const,
    invitations: (workspaceId: string) => [...queryKeys.workspaces.all, "detail", workspaceId, "invitations"] as const,
    /** The log with its filters; `audit(workspaceId)` alone is the prefix of every filtered view. */
    audit: (workspaceId: string, filter?: { actor?: string; action?: string }) =>
      filter
        ? ([...queryKeys.workspaces.all, "detail", workspaceId, "audit", filter.actor ?? "", filter.action ?? ""] as const)
        : ([...queryKeys.workspaces.all, "detail", workspaceId, "audit"] as const),
  },
  /**
   * The tester portal (issue 20): a tester's session (the `hangar_tester` cookie, apart from the
   * dashboard's) and what was sent to them; `tester.all` is everything a tester sign-out drops.
   */
  tester: {
    all: ["tester"] as const,
    session: ["tester", "session"] as const,
    apps: ["tester", "apps"] as const,
    app: (projectId: string) => ["tester", "apps", projectId] as const,
  },
  /** Webhooks (issue 21): a workspace's endpoints, and each endpoint's delivery log. */
  webhooks: {
    all: ["webhooks"] as const,
    list: (workspaceId: string) => [...queryKeys.webhooks.all, "list", workspaceId] as const,
    deliveries: (webhookId: string) => [...queryKeys.webhooks.all, "deliveries", webhookId] as const,
  },
  /** A group's invite link as it previews, before anyone joins (belongs to the link, not a session). */
  joinPreview: (token: string) => ["join", token] as const,
};
