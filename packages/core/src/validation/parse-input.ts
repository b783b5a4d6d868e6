import type * as z from "zod/mini";
import { ValidationError } from "../errors/domain-errors";

const EXPECTED: Record<string, string> = { int: "an integer", number: "a number", string: "a string", object: "an object" };

/** zod/mini ships no message locale: give type errors a readable message ourselves. */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) return "is required";
    return `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
  }
  return issue.message;
}

/** Parses with a zod schema and turns every issue into a named field for the client. */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: describe(issue) })),
  );
}
