import type { ReactNode } from "react";
import "../styles/usage.css";

export interface ChartSeries<T> {
  /** The day's number drawn as this series' bar. */
  value(day: T): number;
  label: string;
  /** Fill class of the bars and the legend swatch (`chart-*` in styles/usage.css and styles/share-settings.css). */
  className: string;
  /** Data attribute carrying the value on each day's group, for tests and tools. */
  data: string;
}

export interface TableColumn<T> {
  label: string;
  cell(day: T): ReactNode;
}

const W = 600;
const H = 200;
const PAD_LEFT = 32;
const PAD_BOTTOM = 22;

/**
 * Per-day bars over the last days, drawn with SVG attributes only (the CSP forbids style
 * attributes), with a table for screen readers. `stacked` piles the series up (parts of one
 * total, like accepted and rate-limited requests); otherwise they stand side by side (counts that
 * overlap, like downloads and installs: an iOS install also downloads the package).
 */
export function DailyBarChart<T extends { day: string }>({
  days,
  series,
  stacked,
  caption,
  columns,
  testId,
}: {
  days: T[];
  series: ChartSeries<T>[];
  stacked: boolean;
  caption: string;
  columns: TableColumn<T>[];
  testId: string;
}) {
  const totals = days.map((d) => (stacked ? series.reduce((sum, s) => sum + s.value(d), 0) : Math.max(0, ...series.map((s) => s.value(d)))));
  const top = niceCeiling(Math.max(1, ...totals));
  const plotH = H - PAD_BOTTOM - 8;
  const step = (W - PAD_LEFT) / Math.max(1, days.length);
  const slotW = Math.max(2, step * 0.7);
  const barW = stacked ? slotW : Math.max(1, slotW / series.length);
  const y = (v: number) => 8 + plotH - (v / top) * plotH;
  return (
    <figure className="chart">
      <svg className="chart-svg" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" data-testid={testId}>
        {[0, top / 2, top].map((v) => (
          <g key={v}>
            <line x1={PAD_LEFT} x2={W} y1={y(v)} y2={y(v)} className="chart-grid" />
            <text x={PAD_LEFT - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
              {v}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD_LEFT + i * step + (step - slotW) / 2;
          let base = 0;
          return (
            <g key={d.day} data-day={d.day} {...Object.fromEntries(series.map((s) => [`data-${s.data}`, s.value(d)]))}>
              {series.map((s, k) => {
                const v = s.value(d);
                const from = stacked ? base : 0;
                if (stacked) base += v;
                if (v <= 0) return null;
                return <rect key={s.data} x={stacked ? x : x + k * barW} y={y(from + v)} width={barW} height={y(from) - y(from + v)} className={s.className} />;
              })}
              {/* Weekly ticks counted back from today, so the last bar is always labelled. */}
              {(days.length - 1 - i) % 7 === 0 && (
                <text x={i === days.length - 1 ? x + slotW : x + slotW / 2} y={H - 6} textAnchor={i === days.length - 1 ? "end" : "middle"} className="chart-label">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend" aria-hidden="true">
        {series.map((s) => (
          <span className="legend-item" key={s.data}>
            <span className={`legend-swatch ${s.className}`} /> {s.label}
          </span>
        ))}
      </figcaption>
      <div className="visually-hidden">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {columns.map((c) => (
                <th scope="col" key={c.label}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                {columns.map((c) => (
                  <td key={c.label}>{c.cell(d)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/**
 * A round axis maximum at or above `n` (1, 2, 4, 5, 6, 8 × 10^k) that is even, so the midline
 * label is a whole number of downloads or requests, never "2.5".
 */
export function niceCeiling(n: number): number {
  if (n <= 2) return 2;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 4, 5, 6, 8, 10]) if (m * magnitude >= n && (m * magnitude) % 2 === 0) return m * magnitude;
  return 10 * magnitude;
}
