/**
 * What changed since the previous build, as complete answers it (`diff`, docs/release-safety.md),
 * and the `--fail-on` release gate over it. The kinds are the service's stable codes
 * (packages/core/src/releases/build-diff.ts): declared here, not imported, so the CLI stays free
 * of the service's code (README, Layout); packages/cli/test/upload/build-changes.test.ts keeps
 * both lists equal.
 */

export const CHANGE_KINDS = [
  "version-changed",
  "build-number-decreased",
  "build-number-repeated",
  "size-changed",
  "min-os-raised",
  "min-os-lowered",
  "target-sdk-raised",
  "target-sdk-lowered",
  "permission-added",
  "permission-removed",
  "entitlement-added",
  "entitlement-removed",
  "signing-key-changed",
  "profile-kind-changed",
  "team-changed",
  "profile-expiry-changed",
  "profile-devices-changed",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Gate names that stand for several kinds. */
export const CHANGE_KIND_GROUPS: Readonly<Record<string, readonly ChangeKind[]>> = {
  "build-number-not-increased": ["build-number-decreased", "build-number-repeated"],
};

export type ChangeSeverity = "info" | "warning" | "danger";

export interface BuildChange {
  kind: string;
  severity: ChangeSeverity;
  message: string;
  from?: string | number | null;
  to?: string | number | null;
}

export interface BuildDiff {
  previous: { fileId: string; version: string; buildNumber: string | null };
  changes: BuildChange[];
}

/**
 * The kinds a `--fail-on` list names (group names expanded) and the names it does not know, which
 * the CLI refuses before uploading: a misspelt gate would otherwise let every build through.
 */
export function parseChangeKinds(list: string): { kinds: ChangeKind[]; unknown: string[] } {
  const kinds = new Set<ChangeKind>();
  const unknown: string[] = [];
  for (const raw of list.split(",")) {
    const name = raw.trim();
    if (!name) continue;
    if ((CHANGE_KINDS as readonly string[]).includes(name)) kinds.add(name as ChangeKind);
    else if (Object.hasOwn(CHANGE_KIND_GROUPS, name)) for (const kind of CHANGE_KIND_GROUPS[name]!) kinds.add(kind);
    else unknown.push(name);
  }
  return { kinds: [...kinds], unknown };
}

const SEVERITY_ORDER: Record<string, number> = { danger: 0, warning: 1, info: 2 };

/** The answer's `diff` when it has the expected shape: null for a first build, undefined when the service sent none. */
export function diffOf(answer: { diff?: unknown }): BuildDiff | null | undefined {
  const diff = answer.diff;
  if (diff === null) return null;
  if (typeof diff !== "object" || diff === undefined || !Array.isArray((diff as BuildDiff).changes)) return undefined;
  const changes = (diff as BuildDiff).changes.filter(
    (c): c is BuildChange => typeof c === "object" && c !== null && typeof c.kind === "string" && typeof c.message === "string" && typeof c.severity === "string",
  );
  // Most severe first, whatever order the service sent (a stable sort keeps its order within a severity).
  changes.sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
  return { previous: (diff as BuildDiff).previous, changes };
}

/** The line the gate prints for one change it caught. */
export const describeChange = (c: BuildChange) => `${printable(c.kind)}: ${printable(c.message)}`;

/** The changes of `diff` a `--fail-on` list catches. */
export function gatedChanges(diff: BuildDiff | null, failOn: readonly string[]): BuildChange[] {
  return diff ? diff.changes.filter((c) => failOn.includes(c.kind)) : [];
}

/**
 * Text from the package (a permission name) with control characters replaced: a crafted manifest
 * must not move a terminal's cursor or forge lines in a CI log.
 */
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");

const COLOR: Record<string, string> = { danger: "\x1b[31m", warning: "\x1b[33m", info: "\x1b[2m" };
const RESET = "\x1b[0m";

/** A previous build for people: "2.10 (10)". */
const buildName = (previous: BuildDiff["previous"]) => printable(`${previous.version}${previous.buildNumber ? ` (${previous.buildNumber})` : ""}`);

/**
 * The changes for a terminal or a CI log, most severe first: one line each with its severity and
 * kind (what `--fail-on` names), colored when `color` (a terminal, NO_COLOR unset).
 */
export function formatChanges(diff: BuildDiff | null | undefined, color: boolean): string {
  if (diff === undefined) return "";
  if (diff === null) return "  Changes:   none to show (the first build of this app in the project)\n";
  if (diff.changes.length === 0) return `  Changes:   none since ${buildName(diff.previous)}\n`;
  const lines = diff.changes.map((c) => {
    const label = c.severity.toUpperCase().padEnd(7);
    const painted = color && COLOR[c.severity] ? `${COLOR[c.severity]}${label}${RESET}` : label;
    return `    ${painted}  ${printable(c.message)} [${printable(c.kind)}]`;
  });
  return `  Changes since ${buildName(diff.previous)}:\n${lines.join("\n")}\n`;
}
