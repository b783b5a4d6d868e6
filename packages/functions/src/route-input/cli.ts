import * as z from "zod/mini";
import { RouteNotFoundError } from "../middleware/http-errors";
import type { RouteKeyOf } from "../routes";
import { api, type RouteInput } from "./rows";

/** `/cli/{fileName}`: any file name (the handler serves exactly two); bounded like one. */
const CliFileRef = z.object({ fileName: z.string().check(z.maxLength(255, "is not a file name")) });
const cliFile = {
  params: CliFileRef,
  notFound: () => new RouteNotFoundError("cli_not_found", "This service serves hangar-cli.tgz and hangar-cli-<version>.tgz only"),
} as const;

/** The cli function's routes (routes.ts). */
export const input = {
  "GET /cli/{fileName}": api(cliFile),
  "HEAD /cli/{fileName}": api(cliFile),
} as const satisfies Record<RouteKeyOf<"cli">, RouteInput>;
