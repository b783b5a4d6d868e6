import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ExpiringItem } from "../api/expiry.api";
import { expiringQuery } from "../api/expiry.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import "../styles/expiry-banner.css";

/**
 * The banner of the dashboard and the projects page (issue 24 item 4, docs/release-safety.md
 * "Expiry warnings"): the workspace's latest builds whose profile expires within 30 days or whose
 * share link expires within a day, soonest first, each linking to its build. What the owners' and
 * admins' mails say, shown to every member, since testers ask everyone.
 *
 * Dismissable for the browser tab's session (sessionStorage): a dismissal remembers what it
 * dismissed, so a build that starts expiring later shows the banner again. Nothing while the list
 * loads or fails: a banner is not worth an error of its own on a page with its own content.
 */
const storageKey = (workspaceId: string) => `hangar.expiry-banner.${workspaceId}`;
const itemKey = (item: ExpiringItem) => `${item.fileId}:${item.kind}`;

function dismissedOf(workspaceId: string): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(storageKey(workspaceId)) ?? "[]") as string[]);
  } catch {
    return new Set();
  }
}

const PLATFORM_WORDS: Record<string, string> = { ios: "iOS", android: "Android" };

function buildName(item: ExpiringItem): string {
  const version = item.version && item.build && item.build !== item.version ? `${item.version} (${item.build})` : (item.version ?? (item.build ? `(${item.build})` : ""));
  return [item.platform ? (PLATFORM_WORDS[item.platform] ?? item.platform) : null, version || null].filter(Boolean).join(" ") || "Build";
}

function whenText(daysLeft: number): string {
  if (daysLeft <= 0) return "today";
  if (daysLeft === 1) return "within a day";
  return `in ${daysLeft} days`;
}

export function ExpiryBanner({ workspaceId }: { workspaceId: string }) {
  const expiring = useQuery(expiringQuery(workspaceId));
  const [dismissed, setDismissed] = useState(() => dismissedOf(workspaceId));
  const headingId = useId();
  const items = expiring.data?.items ?? [];
  if (items.length === 0 || items.every((item) => dismissed.has(itemKey(item)))) return null;

  const dismiss = () => {
    const all = new Set([...dismissed, ...items.map(itemKey)]);
    try {
      sessionStorage.setItem(storageKey(workspaceId), JSON.stringify([...all]));
    } catch {
      // Storage off (private mode): dismissed until the page is left.
    }
    setDismissed(all);
  };

  const builds = new Set(items.map((item) => item.fileId)).size;
  return (
    <section className="alert alert-warning expiry-banner" aria-labelledby={headingId} data-testid="expiry-banner">
      <div className="expiry-banner-header">
        <h2 id={headingId} className="alert-title expiry-banner-title">
          {builds === 1 ? "A build expires soon" : `${builds} builds expire soon`}
        </h2>
        <button type="button" className="button button-ghost button-small" onClick={dismiss} aria-describedby={headingId}>
          Dismiss
        </button>
      </div>
      <p>Once a profile expires, installed copies stop opening and nobody can install the build; an expired link stops serving it.</p>
      <ul className="expiry-banner-list">
        {items.map((item) => (
          <li key={itemKey(item)}>
            <Link to={paths.file(item.fileId)}>
              {item.projectName} · {buildName(item)}
            </Link>
            {" — "}
            {item.kind === "profile" ? "profile" : "share link"} expires {whenText(item.daysLeft)}{" "}
            <span className="expiry-banner-date">
              (<time dateTime={item.expiresAt}>{formatDateTime(item.expiresAt, { dateOnly: item.kind === "profile" })}</time>)
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
