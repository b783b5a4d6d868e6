import { GetObjectCommand } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noiseBlock, writeBigAssetApk } from "../../packages/inspect/fixtures/large-fixtures";
import type { Browser as Person } from "../support/accounts";
import type { Readable } from "node:stream";
import { stack, storeClient } from "../support/api";
import { dashboardUser, newProject } from "../support/dashboard";
import { fixtures } from "../support/fixtures";
import { auditBothSchemes, sessionOf, type BrowserSession } from "./support/browser";

/**
 * Uploading a build from the project page (issue 23 item 5), in Chromium against the local stack:
 * a real APK chosen with the picker goes as one presigned PUT to the object store (cross-origin:
 * its CORS answers and the dashboard's CSP allow it), the build appears with its share link and in
 * the project's list; a file above the (lowered) threshold goes as a multipart upload with
 * checksummed parts; a multipart upload interrupted by a reload is offered again and resumed from
 * the same file (only the missing parts sent), or discarded (aborted); a file that is no package
 * is refused before any request. Axe-clean in both
 * schemes, screenshots at 390 and 1280 px (.tmp/screenshots/browser-upload/).
 */

const MiB = 1024 ** 2;

let owner: Person;
let projectId: string;
let session: BrowserSession;
let tmp: string;
const violations: string[] = [];

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, "browser-upload", name)));
}

beforeAll(async () => {
  ({ b: owner } = await dashboardUser("Uma Loader"));
  ({ projectId } = await newProject(owner, "Browser uploads"));
  session = await sessionOf(stack().baseUrl, owner);
  tmp = mkdtempSync(join(tmpdir(), "hangar-browser-upload-"));
}, 120_000);

afterAll(async () => {
  await session?.context.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("upload in the browser", () => {
  it("uploads a picked APK with one PUT, then shows the build with its share link and lists it", async () => {
    const { page } = session;
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.getByRole("heading", { name: "Upload a build" }).waitFor();
    await audited(page, "project-upload-idle");
    // The empty list names the CLI this service serves, never a bare `npx hangar` (the public
    // registry's "hangar" is someone else's package).
    const origin = new URL(page.url()).origin;
    expect(await page.locator(".panel code").filter({ hasText: "upload app.apk" }).innerText()).toBe(`npx --yes ${origin}/cli/hangar-cli.tgz upload app.apk`);

    // The picker is a real button: the keyboard reaches it, and it opens the file chooser.
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Choose a file…" }).focus();
    await page.keyboard.press("Enter");
    await (await chooser).setFiles(fixtures("apk").find((f) => f.endsWith("aapt2-adaptive-icon.apk"))!);

    // Read in the browser by the extractor before the upload.
    const preview = page.getByTestId("upload-preview");
    await preview.waitFor({ timeout: 60_000 });
    expect(await preview.textContent()).toBe("Adaptive 1.2 (12) · com.hangar.adaptive · Android");
    const done = page.getByTestId("upload-done");
    await done.waitFor({ timeout: 60_000 });
    expect(await done.textContent()).toContain("Adaptive 1.2 (12) uploaded.");
    const share = done.getByRole("link", { name: /\/share\// });
    expect(await share.getAttribute("href")).toMatch(/\/share\/[A-Za-z0-9_-]+$/);
    // The project's list is refreshed from the cache: the new build is there, from the dashboard.
    await page.getByTestId("builds-list").getByText("from the dashboard").waitFor();
    expect(await page.getByTestId("project-build-count").textContent()).toBe("1");
    await audited(page, "project-upload-done");
    expect(session.problems).toEqual([]);

    // The share link opens the build's page.
    await page.goto(new URL((await share.getAttribute("href"))!).pathname);
    await page.getByText("Adaptive").first().waitFor();
  }, 240_000);

  it("reads an IPA in the browser too, and says after complete when testers cannot install the build", async () => {
    const { page } = session;
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    // Signed for the App Store: it uploads, but installs from the App Store or TestFlight only.
    await page.getByTestId("upload-input").setInputFiles(fixtures("ipa").find((f) => f.endsWith("unicode-names.ipa"))!);
    await page.getByTestId("upload-done").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("upload-preview").textContent()).toMatch(/ · iOS$/);
    expect(await page.getByTestId("upload-install-warning").textContent()).toContain("App Store");
    await audited(page, "project-upload-not-installable");
  }, 240_000);

  it("sends a file above the threshold as a multipart upload with checksummed parts in parallel", async () => {
    const { page } = session;
    const big = join(tmp, "Big.apk");
    // About 17 MiB: three parts of the service's 8 MiB.
    await writeBigAssetApk(big, fixtures("apk").find((f) => f.endsWith("aapt2-adaptive-icon.apk"))!, 17 * MiB, { block: noiseBlock() });
    expect(statSync(big).size).toBeGreaterThan(16 * MiB);
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.evaluate(`localStorage.setItem("hangar:multipart-above", "${1024 * 1024}")`);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).searchParams.has("partNumber") ? "?part" : ""}`));

    await page.getByTestId("upload-input").setInputFiles(big);
    await page.getByTestId("upload-progress").waitFor();
    // 17 MiB, yet the extractor read only the ranges it needs.
    expect(await page.getByTestId("upload-preview").textContent()).toContain("Adaptive 1.2 (12)");
    const done = page.getByTestId("upload-done");
    await done.waitFor({ timeout: 120_000 });
    expect(await done.textContent()).toContain("Adaptive 1.2 (12) uploaded.");
    expect(requests).toContain(`POST /api/projects/${projectId}/uploads/multipart`);
    expect(requests).toContain(`POST /api/projects/${projectId}/uploads/complete`);
    expect(requests.filter((r) => r.startsWith("PUT ") && r.endsWith("?part"))).toHaveLength(3);
    await page.evaluate(`localStorage.removeItem("hangar:multipart-above")`);
    await page.getByTestId("builds-list").locator(".file-row").nth(2).waitFor();
    expect(await page.getByTestId("project-build-count").textContent()).toBe("3");
  }, 240_000);

  it("retries a part that failed, offers Retry when it keeps failing, and cancel aborts the multipart upload", async () => {
    const { page } = session;
    const big = join(tmp, "Big.apk");
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.evaluate(`localStorage.setItem("hangar:multipart-above", "${1024 * 1024}")`);
    const partTwo = (url: URL) => url.searchParams.get("partNumber") === "2";
    let refused = 0;
    await page.route(partTwo, (route) => ((refused += 1), route.abort("failed")));

    await page.getByTestId("upload-input").setInputFiles(big);
    await page.getByText("1 of 3 parts could not be sent. Retry to send them; the others are kept.").waitFor({ timeout: 60_000 });
    // Three attempts of part 2, each refused; parts 1 and 3 are stored.
    expect(refused).toBe(3);
    await page.unroute(partTwo);
    const puts: string[] = [];
    page.on("request", (r) => r.method() === "PUT" && puts.push(new URL(r.url()).searchParams.get("partNumber") ?? "single"));
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByTestId("upload-done").waitFor({ timeout: 60_000 });
    expect(puts).toEqual(["2"]);

    // Cancel while the parts hang: every PUT stops and the multipart upload is aborted.
    await page.route((url) => url.searchParams.has("partNumber"), () => undefined);
    const aborted = page.waitForRequest((r) => r.method() === "DELETE" && r.url().endsWith(`/api/projects/${projectId}/uploads/multipart`));
    await page.getByTestId("upload-input").setInputFiles(big);
    await page.getByRole("button", { name: "Cancel upload" }).click();
    expect((await (await aborted).response())?.status()).toBe(204);
    await page.getByText("The upload was cancelled.").waitFor();
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.evaluate(`localStorage.removeItem("hangar:multipart-above")`);
  }, 240_000);

  it("resumes a multipart upload after a reload from the same file, sending only the parts not stored", async () => {
    const { page } = session;
    const file = join(tmp, "Resume.apk");
    // About 25 MiB: four parts of 8 MiB (the last one shorter).
    await writeBigAssetApk(file, fixtures("apk").find((f) => f.endsWith("aapt2-adaptive-icon.apk"))!, 25 * MiB, { block: noiseBlock() });
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.evaluate(`localStorage.setItem("hangar:multipart-above", "${1024 * 1024}")`);
    // Parts 3 and 4 hang: the page is reloaded with parts 1 and 2 stored and two in flight.
    const later = (url: URL) => ["3", "4"].includes(url.searchParams.get("partNumber") ?? "");
    await page.route(later, () => undefined);
    const started = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`/api/projects/${projectId}/uploads/multipart`));
    await page.getByTestId("upload-input").setInputFiles(file);
    const { key } = (await (await started).json()) as { key: string };
    const storedParts = `JSON.parse(localStorage.getItem("hangar:multipart-upload:${projectId}") ?? "null")?.done?.length ?? 0`;
    await expect.poll(() => page.evaluate(storedParts), { timeout: 60_000 }).toBe(2);
    // Reload while the routes still hold the parts: unrouted first, a released part could end the
    // upload (its retry succeeds and the page completes it) before the reload lands.
    await page.reload();
    await page.unrouteAll({ behavior: "ignoreErrors" });

    const offer = page.getByTestId("resume-offer");
    await offer.waitFor();
    expect(await offer.getByText("An upload was interrupted: Resume.apk").count()).toBe(1);
    expect(await offer.textContent()).toMatch(/16\.8 MB of 26\.2 MB stored\./);
    await audited(page, "project-upload-resume-offer");

    // Another file under the same name (another size and time) is not taken.
    const other = join(tmp, "other", "Resume.apk");
    mkdirSync(join(tmp, "other"), { recursive: true });
    copyFileSync(fixtures("apk").find((f) => f.endsWith("aapt2-adaptive-icon.apk"))!, other);
    utimesSync(other, new Date(2020, 0, 1), new Date(2020, 0, 1));
    await page.getByTestId("resume-input").setInputFiles(other);
    await offer.getByText("Resume.apk is not the file of this upload (its size, modification time differ). Choose Resume.apk.").waitFor();

    const puts: string[] = [];
    page.on("request", (r) => r.method() === "PUT" && puts.push(new URL(r.url()).searchParams.get("partNumber") ?? "single"));
    const chooser = page.waitForEvent("filechooser");
    await offer.getByRole("button", { name: "Resume…" }).click();
    await (await chooser).setFiles(file);
    const done = page.getByTestId("upload-done");
    await done.waitFor({ timeout: 120_000 });
    expect(await done.textContent()).toContain("Adaptive 1.2 (12) uploaded.");
    expect(puts.sort()).toEqual(["3", "4"]);
    // What the store holds is the file, byte for byte.
    const sha256 = async (stream: AsyncIterable<unknown>) => {
      const hash = createHash("sha256");
      for await (const chunk of stream) hash.update(chunk as Buffer);
      return hash.digest("hex");
    };
    const object = await storeClient().send(new GetObjectCommand({ Bucket: stack().bucketName, Key: key }));
    expect(await sha256(object.Body as Readable)).toBe(await sha256(createReadStream(file)));
    // Done: nothing is kept, nothing offered after another reload.
    expect(await page.evaluate(storedParts)).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: "Upload a build" }).waitFor();
    expect(await page.getByTestId("resume-offer").count()).toBe(0);
    await page.evaluate(`localStorage.removeItem("hangar:multipart-above")`);
  }, 240_000);

  it("discards an interrupted upload: the multipart upload is aborted and no longer offered", async () => {
    const { page } = session;
    const file = join(tmp, "Resume.apk");
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.evaluate(`localStorage.setItem("hangar:multipart-above", "${1024 * 1024}")`);
    await page.route((url) => url.searchParams.get("partNumber") === "4", () => undefined);
    await page.getByTestId("upload-input").setInputFiles(file);
    const storedParts = `JSON.parse(localStorage.getItem("hangar:multipart-upload:${projectId}") ?? "null")?.done?.length ?? 0`;
    await expect.poll(() => page.evaluate(storedParts), { timeout: 60_000 }).toBe(3);
    // Reload before unrouting, as above: released first, part 4 could be sent and the upload completed.
    await page.reload();
    await page.unrouteAll({ behavior: "ignoreErrors" });
    const aborted = page.waitForRequest((r) => r.method() === "DELETE" && r.url().endsWith(`/api/projects/${projectId}/uploads/multipart`));
    await page.getByTestId("resume-offer").getByRole("button", { name: "Discard" }).click();
    expect((await (await aborted).response())?.status()).toBe(204);
    expect(await page.getByTestId("resume-offer").count()).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: "Upload a build" }).waitFor();
    expect(await page.getByTestId("resume-offer").count()).toBe(0);
    await page.evaluate(`localStorage.removeItem("hangar:multipart-above")`);
  }, 240_000);

  it("refuses a file that is not an APK or IPA, or that the extractor cannot read, before sending anything", async () => {
    const { page } = session;
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await page.getByTestId("upload-input").setInputFiles({ name: "fake.apk", mimeType: "application/octet-stream", buffer: Buffer.from("not a zip at all, just text") });
    await page.getByText(/^fake\.apk cannot be uploaded: /).waitFor();
    expect(requests.filter((r) => r.includes(`/api/projects/${projectId}/uploads`))).toEqual([]);
    await page.getByTestId("upload-input").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByText("notes.txt is not an APK or IPA. Choose a .apk or .ipa file.").waitFor();
    await audited(page, "project-upload-refused");
    expect(violations, violations.join("\n")).toEqual([]);
  }, 120_000);
});
