import type { BuildDiff } from "../releases/build-diff";
import type { LinkBases } from "../upload/upload-settings";
import { buildLinks } from "./event-builders";
import type { BuildPayload, EventActor, WebhookEvent } from "./webhook-events";
import type { WebhookEventType } from "./webhooks.schema";

/** What the example build changed from its (invented) previous build: what a real diff looks like. */
const SAMPLE_DIFF: BuildDiff = {
  previous: { fileId: "fil_TestEvent0000000009", version: "1.4.0", buildNumber: "211" },
  changes: [
    { kind: "entitlement-added", severity: "warning", message: "Entitlement added: aps-environment", from: null, to: "aps-environment" },
    { kind: "size-changed", severity: "info", message: "Size +12 % (43047936 → 48213504 bytes)", from: 43_047_936, to: 48_213_504 },
  ],
};

/**
 * One example event of each type: what "send a test event" delivers (marked as a test in the
 * log), and what docs/webhooks.md prints (a test checks the docs' examples have exactly these
 * shapes). The build is invented; its links point at this deployment but lead nowhere.
 */
export function sampleEvent(type: WebhookEventType, workspaceId: string, links: LinkBases, now: Date): WebhookEvent {
  const at = now.toISOString();
  const build: BuildPayload = {
    fileId: "fil_TestEvent0000000000",
    projectId: "prj_TestEvent0000000",
    fileName: "example-1.4.0-212.ipa",
    fileSize: 48_213_504,
    appName: "Example",
    bundleId: "com.example.app",
    version: "1.4.0",
    buildNumber: "212",
    platform: "ios",
    minOs: "16.0",
    releaseNotes: "Test event from Hangar: no build was uploaded.\n- New onboarding\n- Fixes a crash on launch",
    branch: "main",
    commit: "3f9c2d41b7e0a5c8d6f1e2a3b4c5d6e7f8091a2b",
    ciUrl: "https://ci.example.com/runs/1234",
    createdAt: new Date(now.getTime() - 60_000).toISOString(),
    completedAt: at,
    links: buildLinks("TestEvent000", true, links),
  };
  const actor: EventActor = { kind: "apiKey", clientId: "hgr_TestEvent00000000000" };
  const member: EventActor = { kind: "user", userId: "usr_TestEvent000000000", email: "dev@example.com" };
  const base = { occurredAt: at, workspaceId, projectId: build.projectId, branch: build.branch };
  switch (type) {
    case "build.completed":
      return { ...base, type, data: { workspaceId, build, installable: true, installBlocker: null, diff: SAMPLE_DIFF, actor } };
    case "build.rejected":
      return { ...base, type, data: { workspaceId, build: { ...build, links: null, appName: null, bundleId: null, version: null, buildNumber: null, platform: null, minOs: null, completedAt: null }, rejection: { reason: "invalid_package", message: "The file is not a readable IPA" }, actor } };
    case "build.distributed":
      return { ...base, type, data: { workspaceId, build, distribution: { distributionId: "dst_TestEvent000000000", groups: [{ groupId: "grp_TestEvent00000000", name: "QA" }], recipients: 30, message: "Please test the new onboarding" }, actor: member } };
    case "build.deleted":
      return { ...base, type, data: { workspaceId, build: { ...build, links: null }, reason: "deleted", actor: member } };
    case "link.settings_changed":
      return { ...base, type, data: { workspaceId, build, link: { enabled: true, expiresAt: new Date(now.getTime() + 7 * 86_400_000).toISOString(), hasPassword: true, maxDownloads: null }, changed: ["expiresAt", "password"], actor: member } };
    case "key.created":
    case "key.revoked":
      return { ...base, branch: null, type, data: { workspaceId, key: { clientId: "hgr_TestEvent00000000000", name: "GitHub Actions", projectId: build.projectId }, actor: member } };
    case "tester.joined":
      return { ...base, projectId: null, branch: null, type, data: { workspaceId, tester: { email: "tester@example.com" }, group: { groupId: "grp_TestEvent00000000", name: "QA" }, via: "invite_link" } };
  }
}
