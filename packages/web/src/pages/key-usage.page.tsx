import { dashboardApi, type UsageDay } from "../api/dashboard.api";
import { formatDateTime } from "../app/format";
import { Link } from "../app/router";
import { formatBytes, Loaded, useLoad } from "../components/data";
import { AppShell, Card } from "../components/layouts";

/** One key's usage over the last 30 days: requests (accepted vs rate-limited), uploads, bytes. */
export function KeyUsagePage({ clientId }: { clientId: string }) {
  const [usage, reloadUsage] = useLoad(() => dashboardApi.keyUsage(clientId), [clientId]);
  const [keys] = useLoad(() => dashboardApi.keys(), []);
  const key = keys.status === "ready" ? keys.data.items.find((k) => k.clientId === clientId) : undefined;
  return (
    <AppShell
      title={key ? `Usage of “${key.name}”` : "Key usage"}
      description={key ? `Project ${key.projectName} · client ID ${key.clientId}` : undefined}
      actions={<Link to="/security/developer-settings" className="button button-secondary">All keys</Link>}
    >
      <Loaded load={usage} retry={reloadUsage} label="the key's usage">
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

const W = 600;
const H = 200;
const PAD_LEFT = 32;
const PAD_BOTTOM = 22;

/** Stacked bars drawn with SVG attributes only (the CSP forbids style attributes); a table for screen readers. */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.accepted + d.rateLimited));
  const top = niceCeiling(max);
  const plotH = H - PAD_BOTTOM - 8;
  const step = (W - PAD_LEFT) / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.7);
  const y = (v: number) => 8 + plotH - (v / top) * plotH;
  return (
    <figure className="chart">
      <svg className="chart-svg" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" data-testid="usage-chart">
        {[0, top / 2, top].map((v) => (
          <g key={v}>
            <line x1={PAD_LEFT} x2={W} y1={y(v)} y2={y(v)} className="chart-grid" />
            <text x={PAD_LEFT - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
              {v}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD_LEFT + i * step + (step - barW) / 2;
          return (
            <g key={d.day} data-day={d.day} data-accepted={d.accepted} data-rate-limited={d.rateLimited}>
              {d.accepted > 0 && <rect x={x} y={y(d.accepted)} width={barW} height={y(0) - y(d.accepted)} className="chart-accepted" />}
              {d.rateLimited > 0 && (
                <rect x={x} y={y(d.accepted + d.rateLimited)} width={barW} height={y(d.accepted) - y(d.accepted + d.rateLimited)} className="chart-limited" />
              )}
              {/* Weekly ticks counted back from today, so the last bar is always labelled. */}
              {(days.length - 1 - i) % 7 === 0 && (
                <text x={i === days.length - 1 ? x + barW : x + barW / 2} y={H - 6} textAnchor={i === days.length - 1 ? "end" : "middle"} className="chart-label">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend" aria-hidden="true">
        <span className="legend-item">
          <span className="legend-swatch legend-accepted" /> Accepted
        </span>
        <span className="legend-item">
          <span className="legend-swatch legend-limited" /> Rate-limited (429)
        </span>
      </figcaption>
      <div className="visually-hidden">
      <table>
        <caption>Requests per day, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Accepted</th>
            <th scope="col">Rate-limited</th>
            <th scope="col">Uploads</th>
            <th scope="col">Bytes</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.accepted}</td>
              <td>{d.rateLimited}</td>
              <td>{d.uploads}</td>
              <td>{d.bytes}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}

/** A round axis maximum at or above `n` (1, 2, 5 × 10^k), even so the midline is whole. */
export function niceCeiling(n: number): number {
  if (n <= 2) return 2;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * magnitude >= n) return m * magnitude;
  return 10 * magnitude;
}
