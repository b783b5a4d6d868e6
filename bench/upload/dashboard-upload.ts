/**
 * A build uploaded from the dashboard as a person does it (issue 23: "a 6 GiB build uploads … from
 * the dashboard by drag and drop"): Chromium (Debian's, through playwright-core) signed in to a
 * fresh account, the project page, the file given to the upload input by path (no copy through the
 * test's memory), until the panel says the build is uploaded. Measured: wall time from choosing the
 * file to the panel's answer, and the peak RSS of the browser (all its processes together, and the
 * largest one, the page's renderer) and of the stack, sampled from /proc.
 *
 * The account is made through the API and the stack's MailDev (sign-up, the mailed verify link,
 * sign-in, a display name), as test/support/accounts.ts does for the browser tests.
 */
import { readFileSync, readdirSync } from "node:fs";
import { chromium } from "playwright-core";

export interface DashboardStack {
  baseUrl: string;
  mailUrl: string;
  /** The stack's process: its memory is sampled too. */
  pid: number;
}

export interface DashboardUpload {
  seconds: number;
  /** The panel's "… uploaded." line. */
  done: string;
  browserPeakRssMb: number;
  rendererPeakRssMb: number;
  stackPeakRssMb: number;
}

const PASSWORD = "correct horse battery staple";

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Every process below `root` (children, grandchildren…), from /proc's parent ids. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited while listing
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parentOf) {
      if (parent !== pid) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

/** Sign-up, the mailed verification link, sign-in: the session cookie (name=value). */
async function signedInCookie(stack: DashboardStack): Promise<string> {
  const email = `bench-${Date.now()}@hangar.localhost`;
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: "POST",
      headers: { Origin: stack.baseUrl, "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });
  const signUp = await post("/api/account/sign-up", { email, password: PASSWORD });
  if (signUp.status !== 202) throw new Error(`sign-up ${signUp.status}: ${await signUp.text()}`);
  const link = new RegExp(`/verify-email\\?token=([A-Za-z0-9_-]{43})`);
  let token: string | undefined;
  for (let waited = 0; !token && waited < 20_000; waited += 100) {
    const mails = (await (await fetch(`${stack.mailUrl}/api/email`)).json()) as { to: { address: string }[]; text: string }[];
    token = mails.filter((m) => m.to.some((t) => t.address === email)).map((m) => link.exec(m.text)?.[1]).find(Boolean);
    if (!token) await new Promise((wait) => setTimeout(wait, 100));
  }
  if (!token) throw new Error(`no verification mail for ${email}`);
  const verify = await post("/api/account/verify-email", { token });
  if (verify.status !== 200) throw new Error(`verify ${verify.status}: ${await verify.text()}`);
  const session = await post("/api/session", { email, password: PASSWORD });
  if (session.status !== 200) throw new Error(`sign-in ${session.status}: ${await session.text()}`);
  const cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => !/hangar_device=/.test(c));
  if (!cookie) throw new Error("sign-in set no session cookie");
  // A display name, or the dashboard asks for one before any page.
  const profile = await fetch(`${stack.baseUrl}/api/account/profile`, {
    method: "PUT",
    headers: { Origin: stack.baseUrl, "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ displayName: "Bench" }),
  });
  if (profile.status !== 200) throw new Error(`profile ${profile.status}: ${await profile.text()}`);
  return cookie;
}

/** Uploads `file` from the project page of a new project; `expectDone` is matched against the panel's answer. */
export async function dashboardUpload(stack: DashboardStack, file: string, expectDone: RegExp): Promise<DashboardUpload> {
  const cookie = await signedInCookie(stack);
  const created = await fetch(`${stack.baseUrl}/api/projects`, {
    method: "POST",
    headers: { Origin: stack.baseUrl, "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ name: `Bench ${Date.now()}`, description: "bench:upload", color: "blue" }),
  });
  if (created.status !== 201) throw new Error(`project ${created.status}: ${await created.text()}`);
  const { projectId } = (await created.json()) as { projectId: string };

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  let browserPeakKb = 0;
  let rendererPeakKb = 0;
  let stackPeakKb = 0;
  const isChromium = (pid: number) => {
    try {
      return /^chrom/.test(readFileSync(`/proc/${pid}/comm`, "utf8"));
    } catch {
      return false;
    }
  };
  const sample = () => {
    const sizes = descendants(process.pid).filter(isChromium).map(rssKb);
    browserPeakKb = Math.max(browserPeakKb, sizes.reduce((a, b) => a + b, 0));
    rendererPeakKb = Math.max(rendererPeakKb, ...sizes);
    stackPeakKb = Math.max(stackPeakKb, rssKb(stack.pid));
  };
  const sampler = setInterval(sample, 250);
  try {
    const context = await browser.newContext({ baseURL: stack.baseUrl });
    const [name, ...value] = cookie.split("=");
    await context.addCookies([{ name: name!, value: value.join("="), url: stack.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page
      .getByRole("heading", { name: "Upload a build" })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: Error) => {
        throw new Error(`the project page did not show its upload panel (${page.url()}: ${(await page.locator("body").innerText()).slice(0, 300)})`, { cause: error });
      });
    const began = performance.now();
    await page.getByTestId("upload-input").setInputFiles(file);
    const done = page.getByTestId("upload-done");
    const stopped = page.locator(".upload-status .alert-error");
    await Promise.race([done.waitFor({ timeout: 3_600_000 }), stopped.waitFor({ timeout: 3_600_000 })]);
    const seconds = (performance.now() - began) / 1000;
    if (!(await done.isVisible())) throw new Error(`the dashboard upload stopped: ${await stopped.textContent()}`);
    const text = (await done.textContent()) ?? "";
    if (!expectDone.test(text)) throw new Error(`unexpected answer: ${text}`);
    sample();
    return {
      seconds,
      done: text,
      browserPeakRssMb: browserPeakKb / 1024,
      rendererPeakRssMb: rendererPeakKb / 1024,
      stackPeakRssMb: stackPeakKb / 1024,
    };
  } finally {
    clearInterval(sampler);
    await browser.close();
  }
}
