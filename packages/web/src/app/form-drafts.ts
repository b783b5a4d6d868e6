/**
 * What a person had typed when their session ended, kept across the sign-in that follows.
 *
 * When an API call answers 401 `not_signed_in`, the page is about to be replaced by the login
 * form: `saveDraft` reads the fields of the forms on the page (by id, radio groups by name; never
 * passwords, hidden or file inputs) into sessionStorage under the page's path. After sign-in the person is sent back to
 * that path, and `restoreDraft` fills the fields again once they appear, then forgets the draft:
 * it is restored once, and nothing outlives the tab (sessionStorage, not localStorage).
 *
 * The fields are React-controlled, so a value is written through the element's native setter
 * and announced with an `input` (or a click for checkboxes) event, which React's onChange hears
 * as if the person had typed it; the page's state stays the single source of truth.
 */

const PREFIX = "hangar:draft:";
/** A draft older than this is stale (the person went elsewhere and came back much later). */
const MAX_AGE_MS = 60 * 60 * 1000;
/** How long to wait for the page's form to render (it may load its data first). */
const RESTORE_WAIT_MS = 10_000;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
interface Draft {
  savedAt: number;
  values: Record<string, string | boolean>;
}

const SKIPPED_TYPES = new Set(["password", "hidden", "file", "submit", "button", "reset", "image"]);

function draftFields(root: ParentNode = document): Field[] {
  return [...root.querySelectorAll<Field>("form input, form textarea, form select")].filter(
    (el) => !el.disabled && !(!(el instanceof HTMLSelectElement) && el.readOnly) && !SKIPPED_TYPES.has((el as HTMLInputElement).type),
  );
}

const isRadio = (el: Field): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === "radio";
const isCheckbox = (el: Field): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === "checkbox";

/** A field's key in a draft: its id, or for a radio group (whose buttons may lack ids) its name. */
const RADIO = "radio:";

/** Keeps the page's form values for `path` (the page the person will be sent back to). */
export function saveDraft(path: string): void {
  const values: Record<string, string | boolean> = {};
  for (const el of draftFields()) {
    if (isRadio(el)) {
      if (el.checked && el.name) values[RADIO + el.name] = el.value;
    } else if (el.id) values[el.id] = isCheckbox(el) ? el.checked : el.value;
  }
  if (Object.keys(values).length === 0) return;
  try {
    sessionStorage.setItem(PREFIX + path, JSON.stringify({ savedAt: Date.now(), values } satisfies Draft));
  } catch {
    // Storage full or refused (private modes): the draft is a courtesy, the sign-in still works.
  }
}

const forget = (path: string) => {
  try {
    sessionStorage.removeItem(PREFIX + path);
  } catch {
    // Nothing to forget where storage is refused.
  }
};

function readDraft(path: string): Draft | undefined {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(PREFIX + path);
  } catch {
    return undefined;
  }
  if (!raw) return undefined;
  try {
    const draft = JSON.parse(raw) as Draft;
    return typeof draft?.savedAt === "number" && Date.now() - draft.savedAt < MAX_AGE_MS && typeof draft.values === "object" ? draft : undefined;
  } catch {
    return undefined;
  }
}

/** The element a draft key names, when it is in a form on the page now. */
function fieldFor(key: string, value: string | boolean): Field | undefined {
  const el = key.startsWith(RADIO)
    ? [...document.querySelectorAll<HTMLInputElement>("form input[type=radio]")].find((r) => r.name === key.slice(RADIO.length) && r.value === value)
    : document.getElementById(key);
  return el && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) && el.closest("form") ? el : undefined;
}

function fill(el: Field, value: string | boolean): void {
  if (isRadio(el)) {
    if (!el.checked) el.click();
    return;
  }
  if (isCheckbox(el)) {
    if (typeof value === "boolean" && el.checked !== value) el.click();
    return;
  }
  if (typeof value !== "string" || el.value === value) return;
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, value);
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
}

/**
 * Puts back the draft saved for `path`, once its fields are on the page; answers a function that
 * stops waiting (for an effect's cleanup). The draft leaves storage when its first field is filled
 * (restored once) or when the wait runs out, not on cleanup: React's StrictMode runs an effect,
 * cleans it up and runs it again, and the second run must still find the draft.
 */
export function restoreDraft(path: string): () => void {
  const draft = readDraft(path);
  if (!draft) {
    forget(path);
    return () => undefined;
  }
  const pending = new Map(Object.entries(draft.values));
  const attempt = () => {
    for (const [key, value] of pending) {
      const el = fieldFor(key, value);
      if (el) {
        forget(path);
        fill(el, value);
        pending.delete(key);
      }
    }
    if (pending.size === 0) stop();
  };
  const observer = new MutationObserver(attempt);
  const timer = window.setTimeout(() => {
    forget(path);
    stop();
  }, RESTORE_WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  attempt();
  return stop;
}
