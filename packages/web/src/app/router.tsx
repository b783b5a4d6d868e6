import type { AppPath } from "./paths";
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from "react";

/**
 * A small history-API router: the dashboard has a handful of flat routes, and later pages
 * (projects, keys, files) need `:param` segments, which `matchPath` gives. One event tells
 * subscribers that pushState/replaceState ran (the browser only reports back/forward).
 */

const NAVIGATE_EVENT = "hangar:navigate";

export interface Location {
  pathname: string;
  search: string;
  /** `history.state`, which survives a reload of the same entry. */
  state: unknown;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface RouterValue {
  location: Location;
  navigate(to: AppPath, options?: NavigateOptions): void;
}

const RouterContext = createContext<RouterValue | undefined>(undefined);

function subscribe(callback: () => void) {
  window.addEventListener("popstate", callback);
  window.addEventListener(NAVIGATE_EVENT, callback);
  return () => {
    window.removeEventListener("popstate", callback);
    window.removeEventListener(NAVIGATE_EVENT, callback);
  };
}

// useSyncExternalStore needs a stable snapshot; the href plus the state object identify an entry.
let cached: { key: string; state: unknown; location: Location } | undefined;
function snapshot(): Location {
  const key = window.location.href;
  const state: unknown = window.history.state;
  if (!cached || cached.key !== key || cached.state !== state) {
    cached = { key, state, location: { pathname: window.location.pathname, search: window.location.search, state } };
  }
  return cached.location;
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const location = useSyncExternalStore(subscribe, snapshot);
  const navigate = useCallback((to: AppPath, options: NavigateOptions = {}) => {
    const state = options.state ?? null;
    if (options.replace) window.history.replaceState(state, "", to);
    else window.history.pushState(state, "", to);
    window.dispatchEvent(new Event(NAVIGATE_EVENT));
  }, []);
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error("useRouter outside RouterProvider");
  return router;
}

export const useLocation = () => useRouter().location;
export const useNavigate = () => useRouter().navigate;

export function useSearchParam(name: string): string | null {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search).get(name), [search, name]);
}

/** Matches `/projects/:projectId` against a path; the params come back decoded. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split("/").filter(Boolean);
  const have = pathname.replace(/\/+$/, "").split("/").filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(":")) {
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return undefined;
      }
    } else if (w !== h) return undefined;
  }
  return params;
}

// Control characters (C0, DEL, C1) and backslashes have no place in a path this app hands out:
// URL parsers drop tabs and newlines and read `\` as `/`, so `/<TAB>/evil.example` or `/\evil`
// would become `//evil.example`, another host.
const UNSAFE_IN_PATH = /[\u0000-\u001f\u007f-\u009f\\]/;
const PROBE_ORIGIN = "https://hangar.invalid";

/**
 * Only same-origin absolute paths may be a post-login destination: `//evil.example` and `/\evil`
 * are read by browsers as other hosts, so an open redirect through `?next=` is refused. Besides
 * the shape checks, the path is resolved as a browser would and must stay on the origin.
 */
export function safeNextPath(next: string | null | undefined, fallback: AppPath): AppPath {
  return sameOriginPath(next) ?? fallback;
}

/** `next` when it is a same-origin path (`safeNextPath`'s rule), else undefined: for links that carry it on. */
export function sameOriginPath(next: string | null | undefined): AppPath | undefined {
  if (!next || !next.startsWith("/") || next.startsWith("//") || UNSAFE_IN_PATH.test(next)) return undefined;
  try {
    if (new URL(next, PROBE_ORIGIN).origin !== PROBE_ORIGIN) return undefined;
  } catch {
    return undefined;
  }
  // A same-origin path; one that is no route lands on the not-found page, as a typed address would.
  return next as AppPath;
}

export function Redirect({ to, state }: { to: AppPath; state?: unknown }) {
  const navigate = useNavigate();
  // The state is read when the redirect happens; a new object on each render must not redirect again.
  useEffect(() => navigate(to, { replace: true, ...(state === undefined ? {} : { state }) }), [navigate, to]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: AppPath; state?: unknown };

/** An `<a>` that navigates in-app on a plain click and behaves like a link otherwise. */
export function Link({ to, state, onClick, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (rest.target && rest.target !== "_self") return;
    event.preventDefault();
    navigate(to, { state });
  };
  return <a href={to} onClick={handle} {...rest} />;
}
