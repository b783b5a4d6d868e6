import { fileURLToPath } from "node:url";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { RouteNotFoundError } from "../middleware/http-errors";
import { httpFunction } from "../middleware/http-function";
import { packCli } from "./cli-package";

/**
 * `GET|HEAD /cli/{fileName}`: the CLI of this deployment as an npm tarball (cli-package.ts), so
 * CI runs `npx --yes "$HANGAR_URL/cli/hangar-cli.tgz" upload …` with no registry. Two names:
 * `hangar-cli.tgz` (whatever this stage runs: cached briefly, it changes on a deploy) and
 * `hangar-cli-<version>.tgz` (immutable); any other version is 404, since only this one is here.
 *
 * The files sit beside the bundle at the repository's relative paths: the stack copies them
 * into the function (CLI_PACKAGE_FILES), and SST writes the bundle at the handler's own path
 * (`packages/functions/src/cli/`), so the root is four directories up, in Lambda as in the
 * repository the local stack runs from. Packed at import, so a missing dist fails `npm start`
 * and the cold start, not a CI job's download.
 */
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const cli = packCli(ROOT);
const body = cli.tarball.toString("base64");

const LATEST = "hangar-cli.tgz";
const VERSIONED = `hangar-cli-${cli.version}.tgz`;

function serve(event: HttpEvent, { params }: { params: { fileName: string } }): Promise<HttpResult> {
  const name = params.fileName;
  if (name !== LATEST && name !== VERSIONED) {
    throw new RouteNotFoundError("cli_not_found", `This service serves ${LATEST} and ${VERSIONED} (hangar-cli ${cli.version}) only`);
  }
  const headers = {
    "Content-Type": "application/gzip",
    "Content-Disposition": `attachment; filename="${VERSIONED}"`,
    // The versioned name never changes its bytes; the plain one follows deploys, so caches revalidate soon.
    "Cache-Control": name === VERSIONED ? "public, max-age=31536000, immutable" : "public, max-age=300",
    "X-Content-Type-Options": "nosniff",
    ETag: cli.etag,
    "X-Hangar-Cli-Version": cli.version,
  };
  const known = header(event, "if-none-match");
  if (known && known.split(",").some((tag) => tag.trim().replace(/^W\//, "") === cli.etag)) {
    return Promise.resolve({ statusCode: 304, headers, body: "" });
  }
  return Promise.resolve({ statusCode: 200, headers, body, isBase64Encoded: true });
}

export const handler = httpFunction("cli", {
  "GET /cli/{fileName}": { handler: serve },
  "HEAD /cli/{fileName}": { handler: serve },
});
