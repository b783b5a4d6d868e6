import { InspectError } from "../inspect-result";

/** Shared guard so every adapter refuses the same bad ranges with the same error. */
export function checkRange(offset: number, length: number, size: number): void {
  if (
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(length) ||
    offset < 0 ||
    length < 0 ||
    offset + length > size
  ) {
    throw new InspectError(
      "read_failed",
      `Read of ${length} bytes at ${offset} is outside the package (${size} bytes)`,
    );
  }
}
