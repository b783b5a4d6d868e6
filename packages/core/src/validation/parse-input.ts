import type { z } from "zod";
import { ValidationError } from "../errors/domain-errors";

/** Parses with a zod schema and turns every issue into a named field for the client. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    field: issue.path.map(String).join("."),
    message: issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message,
  }));
  throw new ValidationError(issues);
}
