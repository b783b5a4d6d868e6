import type * as z from "zod/mini";
import { ValidationError } from "../errors/domain-errors";

const EXPECTED: Record<string, string> = { int: "an integer", number: "a number", string: "a string", object: "an object" };

/**
 * How zod's built-in messages begin: "Invalid input" bare (zod/mini alone) or followed by
 * ": expected string, received number" once anything in the process loads zod's English locale
 * (importing "zod" does). A message a schema set itself never begins so.
 */
const isZodDefault = (message: string) => message.startsWith("Invalid input");

/** The value the issue is about, read from the raw input (zod 4 leaves `input` off its issues). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * zod/mini ships no message locale: give type errors a readable message ourselves. A value that
 * is absent "is required"; one of the wrong type says what it must be ("must be a string").
 */
function describe(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === "invalid_type") {
    if (valueAt(input, issue.path) === undefined) return "is required";
    if (!isZodDefault(issue.message)) return issue.message;
    return `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
  }
  return issue.message;
}

/** Parses with a zod schema and turns every issue into a named field for the client. */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: describe(issue, input) })),
  );
}
