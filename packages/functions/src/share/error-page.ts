import { UnknownLinkError, VisitLimitedError } from "@hangar/core/link-errors";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import type { ErrorPage, MappedError } from "../middleware/http-errors";
import { htmlResult, wantsHtml } from "./share-access";
import { renderGonePage, renderNoticePage, renderPasswordPage } from "./share-page";

/** The heading of each page of a link that serves nothing; the text is the error's own message (core's link-errors.ts). */
const GONE_HEADING: Record<string, string> = {
  link_disabled: "This link is turned off",
  link_expired: "This link has expired",
  link_limit_reached: "Install limit reached",
  file_removed: "This build was removed",
  link_replaced: "This link was replaced",
};

const UNKNOWN = {
  heading: "No build at this link",
  text: "Nothing is shared at this address. The link may be mistyped, or the build was removed or its link replaced. Ask the person who shared it for the current link.",
};

const waitText = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : minutes < 120 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.ceil(minutes / 60)} hours`;
};

/** The password form's own route: its answers are pages whatever the Accept header (only the page's form posts there). */
const isPasswordForm = (event: HttpEvent) => event.routeKey === "POST /share/{userKey}";

/** What differs between the pages that share these answers: the share link's and the app page's (apps function). */
export interface PageErrorOptions {
  /** Where the password form posts (the page's own address). */
  formAction(event: HttpEvent): string;
  /** The request is that form's post. */
  isPasswordForm(event: HttpEvent): boolean;
  /** The password page's title and heading (a share link's by default). */
  protectedWording?: { title: string; heading: string };
  /** The heading and text of a 404 this page has its own page for (undefined: the JSON stays). */
  unknown(error: unknown): { heading: string; text: string } | undefined;
}

/**
 * The share and download functions' errors as pages, for browsers: the envelope maps every error
 * (middleware/http-errors.ts) and hands the result here; undefined keeps the JSON envelope, which
 * programs (curl, CI) get. Status and code come from the mapped error, so the page says what the
 * JSON would; which page, from the error's class (never its text); an error this table does not
 * know gets no page:
 * - 410 (link_disabled, link_expired, link_limit_reached, file_removed, link_replaced): the gone page;
 * - 404 of an unknown link: its page (other 404s, a missing icon or a manifest of an APK, stay JSON);
 * - 401 password_required: the password form;
 * - the password form's wrong answer (401) and its 429: the form again, with the problem;
 * - other 429s: a notice with the wait, and Retry-After.
 */
export const errorPage: ErrorPage = pageErrors({
  formAction: (event) => `/share/${event.pathParameters?.userKey ?? ""}`,
  isPasswordForm,
  unknown: (error) => (error instanceof UnknownLinkError ? UNKNOWN : undefined),
});

/** The answers above, for a page with these options (the app pages reuse them as they are). */
export function pageErrors(options: PageErrorOptions): ErrorPage {
  return (mapped: MappedError, event: HttpEvent, error: unknown): HttpResult | undefined => {
    const { code, message } = mapped.body.error;
    const retryAfter = Number(mapped.headers["Retry-After"]);
    const limited = { headers: { "Retry-After": String(retryAfter) } };
    const form = options.formAction(event);
    if (options.isPasswordForm(event)) {
      if (code === "wrong_password") return htmlResult(mapped.status, renderPasswordPage(form, message, options.protectedWording));
      if (mapped.status === 429) return htmlResult(429, renderPasswordPage(form, message, options.protectedWording), [], limited);
    }
    if (!wantsHtml(event)) return undefined;
    if (mapped.status === 410 && Object.hasOwn(GONE_HEADING, code)) return htmlResult(410, renderGonePage(GONE_HEADING[code]!, message));
    const unknown = mapped.status === 404 ? options.unknown(error) : undefined;
    if (unknown) return htmlResult(404, renderGonePage(unknown.heading, unknown.text));
    if (mapped.status === 401 && code === "password_required") return htmlResult(401, renderPasswordPage(form, undefined, options.protectedWording));
    if (mapped.status === 429) {
      // The JSON names the wait in seconds; the page in words.
      const reason = error instanceof VisitLimitedError ? error.reason : "Too many requests.";
      const text = `${reason} Try again in ${waitText(retryAfter)}.`;
      return htmlResult(429, renderNoticePage("Too many requests", text), [], limited);
    }
    return undefined;
  };
}
