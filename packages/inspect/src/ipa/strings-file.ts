/**
 * InfoPlist.strings in any of the forms Xcode ships: binary plist (the default when
 * "Strings file output encoding" is binary), XML plist, or the old-style text
 * `"key" = "value";` with comments, in UTF-8 or UTF-16.
 */
import { decodeText, parsePlist } from "./plist";
import { isDict, plistString } from "./plist-value";

export class StringsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StringsFileError";
  }
}

export function parseStringsFile(buf: Buffer): Map<string, string> {
  const text = buf.toString("latin1", 0, Math.min(buf.length, 64));
  const isPlist = text.startsWith("bplist00") || /^\s*<\?xml|^\s*<plist/.test(decodeText(buf.subarray(0, 256)));
  if (isPlist) {
    const value = parsePlist(buf);
    const result = new Map<string, string>();
    if (isDict(value)) {
      for (const [key, entry] of Object.entries(value)) {
        const s = plistString(entry);
        if (s !== undefined) result.set(key, s);
      }
    }
    return result;
  }
  return parseOldStyleStrings(decodeText(buf));
}

/** The old-style (OpenStep) strings syntax; an enclosing `{ }` is accepted too. */
export function parseOldStyleStrings(source: string): Map<string, string> {
  const result = new Map<string, string>();
  let p = 0;
  const n = source.length;

  const skipSpace = (): void => {
    while (p < n) {
      const c = source[p]!;
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\ufeff") {
        p++;
      } else if (source.startsWith("/*", p)) {
        const end = source.indexOf("*/", p + 2);
        if (end < 0) throw new StringsFileError("Unterminated comment");
        p = end + 2;
      } else if (source.startsWith("//", p)) {
        const end = source.indexOf("\n", p + 2);
        p = end < 0 ? n : end + 1;
      } else {
        return;
      }
    }
  };

  const readString = (): string => {
    if (source[p] === '"') return readQuoted();
    const start = p;
    while (p < n && /[A-Za-z0-9_$+/:.-]/.test(source[p]!)) p++;
    if (p === start) throw new StringsFileError(`Expected a string at ${p}`);
    return source.slice(start, p);
  };

  const readQuoted = (): string => {
    p++; // opening quote
    let out = "";
    while (p < n) {
      const c = source[p++]!;
      if (c === '"') return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = source[p++];
      switch (e) {
        case "n":
          out += "\n";
          break;
        case "t":
          out += "\t";
          break;
        case "r":
          out += "\r";
          break;
        case "a":
          out += "\x07";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "v":
          out += "\v";
          break;
        case "U":
        case "u": {
          const hex = /^[0-9a-fA-F]{1,4}/.exec(source.slice(p, p + 4))?.[0] ?? "";
          if (!hex) throw new StringsFileError("Bad \\U escape");
          out += String.fromCharCode(parseInt(hex, 16));
          p += hex.length;
          break;
        }
        case undefined:
          throw new StringsFileError("Unterminated escape");
        default:
          if (e >= "0" && e <= "7") {
            const oct = /^[0-7]{1,3}/.exec(source.slice(p - 1, p + 2))![0];
            out += String.fromCharCode(parseInt(oct, 8));
            p += oct.length - 1;
          } else {
            out += e; // \" \\ \' and anything else: the character itself
          }
      }
    }
    throw new StringsFileError("Unterminated string");
  };

  skipSpace();
  const braced = source[p] === "{";
  if (braced) p++;
  for (;;) {
    skipSpace();
    if (p >= n) break;
    if (braced && source[p] === "}") break;
    const key = readString();
    skipSpace();
    if (source[p] === ";") {
      // `"key";` means key = key.
      result.set(key, key);
      p++;
      continue;
    }
    if (source[p] !== "=") throw new StringsFileError(`Expected "=" after "${key}"`);
    p++;
    skipSpace();
    const value = readString();
    skipSpace();
    if (source[p] !== ";") throw new StringsFileError(`Expected ";" after the value of "${key}"`);
    p++;
    result.set(key, value);
  }
  return result;
}
