import type { HttpResult } from "../middleware/http-context";
import { json } from "../middleware/http-function";

export const noContent = (): HttpResult => ({ statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" });

/** A delete that finished answers 204; one that continues in the background 202 `{status: "deleting"}`. */
export const deleted = (status: "deleted" | "deleting"): HttpResult => (status === "deleted" ? noContent() : json(202, { status }));
