import { ValidationError } from "@hangar/core";
import { header, type Middleware } from "./http-context";
import { BodyTooLargeError, InvalidJsonError, UnsupportedBodyTypeError } from "./http-errors";

export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * Parses the JSON body, then checks it with the route's schema (route-input/) into
 * context.body. Our own rather than @middy/http-json-body-parser: that one answers malformed
 * JSON with 422 and has no size cap, and our contract is 400/413/415 codes.
 */
export function jsonBody(parse: (raw: unknown) => unknown, maxBytes = MAX_JSON_BODY_BYTES): Middleware {
  return {
    before: (request) => {
      const { event } = request;
      const contentType = header(event, "content-type")?.split(";")[0]?.trim().toLowerCase();
      if (contentType !== "application/json" && !contentType?.endsWith("+json")) throw new UnsupportedBodyTypeError();
      const raw = event.body ?? "";
      const bytes = event.isBase64Encoded ? Buffer.from(raw, "base64") : Buffer.from(raw, "utf8");
      if (bytes.length > maxBytes) throw new BodyTooLargeError(maxBytes);
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString("utf8"));
      } catch {
        throw new InvalidJsonError();
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new ValidationError([{ field: "", message: "must be a JSON object" }]);
      }
      request.context.body = parse(parsed);
    },
  };
}
