/** `node:fs/promises` in a browser bundle: the file reader is never used there (BlobRangeReader is). */
export function open(): never {
  throw new Error("files are read through BlobRangeReader in the browser");
}
export type FileHandle = never;
