import { formatBytes } from "@hangar/core/format-bytes";
import { useQuery } from "@tanstack/react-query";
import type { UsageDay } from "../api/dashboard.api";
import { keysQuery, keyUsageQuery } from "../api/dashboard.queries";
import { formatDateTime } from "../app/format";
import { paths } from "../app/paths";
import { Link } from "../app/router";
import { useWorkspace } from "../app/workspace";
import { Loaded } from "../components/data";
import { DailyBarChart } from "../components/daily-chart";
import { AppShell, Card } from "../components/layouts";
import "../styles/usage.css";

/** One key's usage over the last 30 days: requests (accepted vs rate-limited), uploads, bytes. */
export function KeyUsagePage({ clientId }: { clientId: string }) {
  const usage = useQuery(keyUsageQuery(clientId));
  // The key's name and project, from the list Developer Settings showed (cached, so no wait from
  // there): the current workspace's, which is the one that page listed the key in.
  const { workspace } = useWorkspace();
  const keys = useQuery({ ...keysQuery(workspace?.workspaceId ?? ""), enabled: Boolean(workspace) });
  const key = keys.data?.items.find((k) => k.clientId === clientId);
  return (
    <AppShell
      title={key ? `Usage of “${key.name}”` : "Key usage"}
      description={key ? `Project ${key.projectName} · client ID ${key.clientId}` : undefined}
      workspaceId={key?.workspaceId}
      actions={
        <Link to={workspace ? paths.inWorkspace("/security/developer-settings", workspace.workspaceId) : "/security/developer-settings"} className="button button-secondary">
          All keys
        </Link>
      }
    >
      <Loaded query={usage} label="the key's usage">
        {(u) => (
          <div className="stack">
            <dl className="stat-grid">
              <div className="stat">
                <dt>Requests accepted</dt>
                <dd>{u.totals.accepted}</dd>
              </div>
              <div className="stat">
                <dt>Rate-limited (429)</dt>
                <dd>{u.totals.rateLimited}</dd>
              </div>
              <div className="stat">
                <dt>Uploads completed</dt>
                <dd>{u.totals.uploads}</dd>
              </div>
              <div className="stat">
                <dt>Bytes uploaded</dt>
                <dd>{formatBytes(u.totals.bytes)}</dd>
              </div>
              <div className="stat stat-small">
                <dt>Last used</dt>
                <dd>{u.lastUsedAt ? formatDateTime(u.lastUsedAt) : "Never"}</dd>
              </div>
            </dl>
            <Card title="Requests per day" id="requests" description={`Last 30 days, ${u.from} to ${u.to} (UTC).`}>
              <UsageChart days={u.days} />
            </Card>
          </div>
        )}
      </Loaded>
    </AppShell>
  );
}

/** Requests per day, accepted and rate-limited stacked (parts of one total). */
function UsageChart({ days }: { days: UsageDay[] }) {
  return (
    <DailyBarChart
      days={days}
      stacked
      testId="usage-chart"
      caption="Requests per day, last 30 days"
      series={[
        { value: (d) => d.accepted, label: "Accepted", className: "chart-accepted", data: "accepted" },
        { value: (d) => d.rateLimited, label: "Rate-limited (429)", className: "chart-limited", data: "rate-limited" },
      ]}
      columns={[
        { label: "Accepted", cell: (d) => d.accepted },
        { label: "Rate-limited", cell: (d) => d.rateLimited },
        { label: "Uploads", cell: (d) => d.uploads },
        { label: "Bytes", cell: (d) => d.bytes },
      ]}
    />
  );
}
