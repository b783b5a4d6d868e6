/**
 * Rewrites the per-function IAM table in docs/deploy.md (between the permissions markers) from
 * stacks/access.ts, the one place permissions are declared: `npm run docs:permissions`. A stack
 * test fails when the document and the grants differ.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { functions, type RouteFunctionName } from "@hangar/functions";
import { permissionsTable } from "../stacks/access";

const doc = join(import.meta.dirname, "..", "docs", "deploy.md");
const routeFunctions = (Object.keys(functions) as (keyof typeof functions)[]).filter((n): n is RouteFunctionName => n !== "fallback");
const text = await readFile(doc, "utf8");
const markers = /(<!-- permissions:start -->\n)[\s\S]*?(\n<!-- permissions:end -->)/;
if (!markers.test(text)) throw new Error("docs/deploy.md has no <!-- permissions:start/end --> markers");
await writeFile(doc, text.replace(markers, (_, start: string, end: string) => `${start}${permissionsTable(routeFunctions)}${end}`));
console.log("docs/deploy.md: permissions table rewritten from stacks/access.ts");
