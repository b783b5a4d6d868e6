import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { Presign, ValidationError, parseInput } from "../src";

// Anything in the process that imports "zod" installs its English locale globally (the local
// stack does): messages must not depend on it. Vitest isolates test files, so this stays here.
z.config(z.locales.en());

describe("validation messages with zod's English locale loaded", () => {
  it("still say what a wrong type must be", () => {
    const error = (() => {
      try {
        parseInput(Presign, { fileName: 5, fileSize: "12", fileType: ["x"] });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { field: "fileName", message: "must be a string" },
      { field: "fileSize", message: "must be an integer" },
      { field: "fileType", message: "must be a string" },
    ]);
  });
});
