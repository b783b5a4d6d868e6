import type { ReactNode } from "react";
import type { DeviceFamily, InstallVia } from "../api/testers.api";
import { deviceLabel } from "../app/testers";

/** What every install row carries, a build's (by tester) or a tester's (by build). */
interface InstallRow {
  deviceFamily: DeviceFamily;
  via: InstallVia;
  downloads: number;
  installStarts: number;
}

interface Column<T> {
  label: string;
  cell(item: T): ReactNode;
}

/**
 * Installs through personal links and the portal, as one table wherever they are listed: a
 * build's page (one row per tester) and a tester's page (one row per build). The caller names
 * the row header and its own columns; Device and How end every row. Cards on phones, labelled
 * by `data-label` (widgets.css).
 */
export function InstallTable<T extends InstallRow>({ items, itemKey, rowHeader, columns, caption, testId, panel = false }: {
  items: readonly T[];
  itemKey(item: T): string;
  /** The first column, each row's header (`th scope=row`). */
  rowHeader: Column<T> & { className?: string };
  /** The columns between the row header and Device. */
  columns: readonly Column<T>[];
  caption: string;
  testId: string;
  /** In a panel of its own (a page's section), rather than inside a card. */
  panel?: boolean;
}) {
  return (
    <div className={panel ? "panel table-panel" : "table-panel"}>
      <table className="table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{rowHeader.label}</th>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
            <th scope="col">Device</th>
            <th scope="col">How</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={itemKey(item)}>
              <th scope="row" {...(rowHeader.className ? { className: rowHeader.className } : {})}>
                {rowHeader.cell(item)}
              </th>
              {columns.map((c) => (
                <td key={c.label} data-label={c.label}>
                  {c.cell(item)}
                </td>
              ))}
              <td data-label="Device">{deviceLabel(item.deviceFamily)}</td>
              <td data-label="How">
                <InstallCounts via={item.via} downloads={item.downloads} installStarts={item.installStarts} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Personal link · 2 downloads, 1 install": how a tester came, and what they fetched. */
export function InstallCounts({ via, downloads, installStarts }: { via: InstallVia; downloads: number; installStarts: number }) {
  return (
    <>
      {via === "portal" ? "Tester portal" : "Personal link"} · {downloads} {downloads === 1 ? "download" : "downloads"}
      {installStarts > 0 && `, ${installStarts} ${installStarts === 1 ? "install" : "installs"}`}
    </>
  );
}
