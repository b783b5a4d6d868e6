import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Action } from "../api/workspaces.api";
import { paths, WORKSPACE_PATHS, type AppPath, type RoutePath, type WorkspacePath } from "../app/paths";
import { Link, useLocation } from "../app/router";
import { useAccount, useSession } from "../app/session";
import { roleLabel, useSwitchWorkspace, useWorkspace, type CurrentWorkspace } from "../app/workspace";
import { fieldId } from "./field";
import { Logo } from "./logo";

/** Sets the tab title; each page calls it once. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Hangar`;
  }, [title]);
}

/** Moves focus to the page's heading after client-side navigation, as a page load would. */
export function useFocusOnNavigate() {
  const ref = useRef<HTMLHeadingElement | null>(null);
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus({ preventScroll: false });
  }, [pathname]);
  return ref;
}

/** The signed-out pages: one centred card under the logo (which leads `home`: the tester pages' is their apps). */
export function AuthLayout({ title, subtitle, children, footer, icon: iconNode, home = "/" }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode; icon?: ReactNode; home?: AppPath }) {
  usePageTitle(title);
  const headingRef = useFocusOnNavigate();
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Link to={home} className="auth-logo" aria-label="Hangar home">
          <Logo />
        </Link>
      </header>
      <main className="auth-main">
        <div className={`auth-card${iconNode ? " auth-card-centered" : ""}`}>
          {iconNode && (
            <div className="auth-icon" aria-hidden="true">
              {iconNode}
            </div>
          )}
          <h1 className="auth-title" ref={headingRef} tabIndex={-1}>
            {title}
          </h1>
          {subtitle && <p className="auth-subtitle">{subtitle}</p>}
          {children}
        </div>
        {footer && <div className="auth-footer">{footer}</div>}
      </main>
    </div>
  );
}

interface NavItem {
  to: RoutePath;
  label: string;
  icon: ReactNode;
  /** Other paths that count as this item (sub-pages). */
  prefix?: string;
  /** Offered only to roles the policy gives this (from the workspace answer's `permissions`). */
  requires?: Action;
}

const icon = (d: string) => (
  <svg className="nav-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);

const NAV: { section?: string; items: NavItem[] }[] = [
  {
    items: [
      { to: "/dashboard", label: "Dashboard", icon: icon("M3 4.5A1.5 1.5 0 0 1 4.5 3h3A1.5 1.5 0 0 1 9 4.5v3A1.5 1.5 0 0 1 7.5 9h-3A1.5 1.5 0 0 1 3 7.5v-3Zm8 0A1.5 1.5 0 0 1 12.5 3h3A1.5 1.5 0 0 1 17 4.5v3A1.5 1.5 0 0 1 15.5 9h-3A1.5 1.5 0 0 1 11 7.5v-3Zm-8 8A1.5 1.5 0 0 1 4.5 11h3A1.5 1.5 0 0 1 9 12.5v3A1.5 1.5 0 0 1 7.5 17h-3A1.5 1.5 0 0 1 3 15.5v-3Zm8 0a1.5 1.5 0 0 1 1.5-1.5h3a1.5 1.5 0 0 1 1.5 1.5v3a1.5 1.5 0 0 1-1.5 1.5h-3a1.5 1.5 0 0 1-1.5-1.5v-3Z") },
      { to: "/projects", label: "Projects", prefix: "/projects/", icon: icon("M2.5 5.5A2 2 0 0 1 4.5 3.5h3.1a2 2 0 0 1 1.4.6l1 1h5.5a2 2 0 0 1 2 2v7.4a2 2 0 0 1-2 2h-11a2 2 0 0 1-2-2V5.5Z") },
      { to: "/testers", label: "Testers", prefix: "/testers/", icon: icon("M6.5 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-5 7a5 5 0 0 1 10 0 1 1 0 0 1-1 1h-8a1 1 0 0 1-1-1Zm12.3-9.7a1 1 0 0 1 1.4 0l.8.8 1.8-1.8a1 1 0 1 1 1.4 1.4l-2.5 2.5a1 1 0 0 1-1.4 0l-1.5-1.5a1 1 0 0 1 0-1.4Z") },
    ],
  },
  {
    section: "Security",
    items: [
      { to: "/security/developer-settings", label: "Developer Settings", prefix: "/security/", icon: icon("M7 8a5 5 0 1 1 3.9 4.9L9.5 14.3H8v1.5H6.5v1.5H3v-3.2l4.2-4.2A5 5 0 0 1 7 8Zm6.5-2a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z") },
    ],
  },
  {
    section: "Settings",
    items: [
      { to: "/settings/workspace", label: "Workspace", icon: icon("M3 5.5A2.5 2.5 0 0 1 5.5 3h9A2.5 2.5 0 0 1 17 5.5v9a2.5 2.5 0 0 1-2.5 2.5h-9A2.5 2.5 0 0 1 3 14.5v-9ZM6 7a1 1 0 0 0 0 2h8a1 1 0 1 0 0-2H6Zm0 4a1 1 0 1 0 0 2h5a1 1 0 1 0 0-2H6Z") },
      { to: "/settings/members", label: "Members", icon: icon("M7 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7 0a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM1.5 16a5.5 5.5 0 0 1 11 0 1 1 0 0 1-1 1h-9a1 1 0 0 1-1-1Zm12.6 1h3.4a1 1 0 0 0 1-1 4.5 4.5 0 0 0-6.3-4.1 6.9 6.9 0 0 1 1.9 5.1Z") },
      { to: "/settings/audit", label: "Audit log", requires: "audit.read", icon: icon("M5 2.5A1.5 1.5 0 0 0 3.5 4v12A1.5 1.5 0 0 0 5 17.5h10a1.5 1.5 0 0 0 1.5-1.5V7.4a1.5 1.5 0 0 0-.4-1L12.6 2.9a1.5 1.5 0 0 0-1-.4H5Zm2 7h6a1 1 0 1 1 0 2H7a1 1 0 1 1 0-2Zm0 3.5h4a1 1 0 1 1 0 2H7a1 1 0 1 1 0-2Z") },
      { to: "/settings/webhooks", label: "Webhooks", icon: icon("M10 2.5a3.5 3.5 0 0 0-1.6 6.6L6.2 13a2.5 2.5 0 1 0 1.7 1l2.3-4a3.5 3.5 0 0 0 .9-.1 1 1 0 0 0-.3-2 1.5 1.5 0 1 1 1.1-2.5 1 1 0 1 0 1.5-1.3A3.5 3.5 0 0 0 10 2.5Zm3.4 8.3a1 1 0 0 0-1.6 1.2l1 1.3a2.5 2.5 0 1 0 1.6-1.2l-1-1.3ZM4 12.5a1 1 0 0 0-1-1.7 3.5 3.5 0 1 0 5.3 3.2h2.2a1 1 0 1 0 0-2H7.6a1 1 0 0 0-.9 1.3A1.5 1.5 0 1 1 4 12.5Z") },
      { to: "/account", label: "Account", icon: icon("M10 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6.5 7a6.5 6.5 0 0 1 13 0 1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1Z") },
    ],
  },
];

const isWorkspacePath = (path: string): path is WorkspacePath => (WORKSPACE_PATHS as readonly string[]).includes(path);

/** A nav item's address: a workspace's page names the workspace, so the link keeps it. */
const hrefOf = (item: NavItem, workspaceId: string | undefined): AppPath =>
  workspaceId && isWorkspacePath(item.to) ? paths.inWorkspace(item.to, workspaceId) : item.to;

/**
 * The signed-in frame: sidebar navigation on wide screens, a menu button on phones, and the
 * workspace switcher above the navigation. A page whose data names its workspace (a project, a
 * build) passes it as `workspaceId`, so the switcher and the links show that workspace.
 */
export function AppShell({ title, description, actions, workspaceId, children }: { title: string; description?: ReactNode; actions?: ReactNode; workspaceId?: string; children: ReactNode }) {
  usePageTitle(title);
  const current = useWorkspace(workspaceId);
  const currentId = current.workspace?.workspaceId;
  const headingRef = useFocusOnNavigate();
  const account = useAccount();
  const { signOut } = useSession();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuButton = useRef<HTMLButtonElement | null>(null);
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const isCurrent = (item: NavItem) => pathname === item.to || (item.prefix !== undefined && pathname.startsWith(item.prefix));
  const name = account.displayName ?? account.email;

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/dashboard" className="topbar-logo" aria-label="Hangar dashboard">
          <Logo />
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d={menuOpen ? "M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" : "M3 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm0 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm1 4a1 1 0 1 0 0 2h12a1 1 0 1 0 0-2H4Z"} />
          </svg>
          <span>Menu</span>
        </button>
      </header>
      <aside id="sidebar" className={`sidebar${menuOpen ? " sidebar-open" : ""}`}>
        <div className="sidebar-inner">
          <Link to="/dashboard" className="sidebar-logo" aria-label="Hangar dashboard">
            <Logo />
          </Link>
          <WorkspaceSwitcher current={current} />
          <nav aria-label="Main" className="nav">
            {NAV.map((group, i) => (
              <div className="nav-group" key={group.section ?? i}>
                {group.section && <p className="nav-section" id={`nav-${group.section.toLowerCase()}`}>{group.section}</p>}
                <ul aria-labelledby={group.section ? `nav-${group.section.toLowerCase()}` : undefined}>
                  {group.items.filter((item) => !item.requires || current.can(item.requires)).map((item) => (
                    <li key={item.to}>
                      <Link to={hrefOf(item, currentId)} className="nav-link" aria-current={isCurrent(item) ? "page" : undefined}>
                        {item.icon}
                        {item.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
          <div className="sidebar-account">
            <span className="avatar" aria-hidden="true">
              {initials(name)}
            </span>
            <div className="sidebar-account-text">
              <p className="sidebar-account-name">{name}</p>
              <p className="sidebar-account-email" title={account.email}>
                {account.email}
              </p>
            </div>
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={signingOut}
              onClick={() => {
                setSigningOut(true);
                void signOut();
              }}
            >
              {signingOut ? "Signing out…" : "Sign out"}
            </button>
          </div>
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        <div className="page">
          <div className="page-header">
            <div>
              <h1 className="page-title" ref={headingRef} tabIndex={-1}>
                {title}
              </h1>
              {description && <p className="page-description">{description}</p>}
            </div>
            {actions && <div className="page-actions">{actions}</div>}
          </div>
          {children}
        </div>
      </main>
    </div>
  );
}

/**
 * The workspace switcher: a native select (keyboard, screen readers and phones know it), the
 * caller's role in the chosen workspace, and "New workspace". Choosing one shows the same page
 * of that workspace where there is one (projects stay projects), else its dashboard.
 */
function WorkspaceSwitcher({ current }: { current: CurrentWorkspace }) {
  const switchTo = useSwitchWorkspace();
  const { pathname } = useLocation();
  const { workspaces, workspace } = current;
  const id = fieldId("workspace-switcher");
  return (
    <div className="workspace-switcher">
      <label className="nav-section" htmlFor={id}>
        Workspace
      </label>
      {workspaces.isError ? (
        <p className="workspace-switcher-note">
          Could not load your workspaces.{" "}
          <button type="button" className="link-button" onClick={() => void workspaces.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <select
          id={id}
          className="input select workspace-select"
          value={workspace?.workspaceId ?? ""}
          disabled={!workspace}
          aria-describedby={workspace ? `${id}-role` : undefined}
          onChange={(event) => switchTo(event.target.value, isWorkspacePath(pathname) ? pathname : "/dashboard")}
        >
          {!workspace && <option value="">Loading…</option>}
          {workspaces.data?.map((w) => (
            <option key={w.workspaceId} value={w.workspaceId}>
              {w.personal ? `${w.name} (personal)` : w.name}
            </option>
          ))}
        </select>
      )}
      {workspace && (
        <p className="workspace-switcher-note" id={`${id}-role`} data-testid="workspace-role">
          Your role: {roleLabel(workspace.role)}
          {!workspace.personal && ` · ${workspace.memberCount} ${workspace.memberCount === 1 ? "member" : "members"}`}
        </p>
      )}
      <Link to="/workspaces/new" className="workspace-new">
        New workspace
      </Link>
    </div>
  );
}

function initials(name: string): string {
  const parts = name.replace(/@.*/, "").split(/[\s._-]+/).filter(Boolean);
  const letters = (parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [parts[0]?.[0]]).filter(Boolean).join("");
  return (letters || "?").toUpperCase();
}

/** A card with a heading; sections of a settings page. */
export function Card({ title, description, children, headingLevel = 2, id }: { title: string; description?: ReactNode; children: ReactNode; headingLevel?: 2 | 3; id?: string }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="card" aria-labelledby={id ? `${id}-title` : undefined}>
      <div className="card-header">
        <Heading className="card-title" id={id ? `${id}-title` : undefined}>
          {title}
        </Heading>
        {description && <p className="card-description">{description}</p>}
      </div>
      <div className="card-body">{children}</div>
    </section>
  );
}

export function EmptyState({ title, children, icon: iconNode, action, headingLevel = 2 }: { title: string; children?: ReactNode; icon?: ReactNode; action?: ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="empty">
      {iconNode && <div className="empty-icon">{iconNode}</div>}
      <Heading className="empty-title">{title}</Heading>
      {children && <div className="empty-text">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}
