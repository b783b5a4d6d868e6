/**
 * Writes docs/openapi.json: the OpenAPI 3.1 document the openapi function serves at
 * `GET /api/openapi.json`, built from the route tables (packages/functions/src/openapi/
 * openapi-document.ts). `npm run docs:openapi`; packages/functions/test/openapi.test.ts fails
 * while the committed file differs from what the tables give.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiDocumentText } from "../packages/functions/src/openapi/openapi-document";

const target = fileURLToPath(new URL("../docs/openapi.json", import.meta.url));
writeFileSync(target, openApiDocumentText());
console.log("wrote docs/openapi.json");
