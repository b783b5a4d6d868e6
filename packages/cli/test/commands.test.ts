import { describe, expect, it } from "vitest";
import { inspectCommand } from "../src/commands/inspect";
import { commands } from "../src/commands";
import { uploadCommand } from "../src/commands/upload";

describe("command registry", () => {
  it("lists each command under the name and summary its module declares", () => {
    expect(commands.map(({ name, summary }) => ({ name, summary }))).toEqual(
      [uploadCommand, inspectCommand].map(({ name, summary }) => ({ name, summary })),
    );
  });
});
