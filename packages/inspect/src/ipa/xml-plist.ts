/**
 * XML property list reader: Info.plist, XML InfoPlist.strings, the plist inside
 * embedded.mobileprovision. A plist is a tiny fixed vocabulary, so this is a dedicated
 * single-pass scanner rather than a general XML parser: no DOM, no entity expansion beyond the
 * five predefined ones and character references, a DOCTYPE is skipped whole. It walks with an
 * explicit stack (deep nesting cannot overflow the JS stack), every loop advances, searches use
 * indexOf, so time is linear in the input; anything malformed throws PlistParseError and nothing
 * is ever logged.
 *
 * Values are those `plist.parse` (npm plist 3.x) gives for the same well-formed input, since the
 * rest of the IPA code was written against it: <integer> is parseInt (a number, so 64-bit values
 * lose precision, a junk value is NaN), <real> parseFloat, <date> `new Date(text)` (possibly an
 * Invalid Date), <data> a Buffer from base64 with whitespace dropped, a <key> without a value
 * gets "", the last duplicate key wins, <null/> inside an <array> is dropped, and a <plist>
 * holding zero or several values gives an array of them.
 *
 * Deliberately different from plist.parse (which let xmldom log and carry on):
 * - stricter: text where a value belongs, elements inside a scalar, unknown entities, a bare "&",
 *   invalid character references (&#0;, surrogates, past U+10FFFF), content after </plist>;
 * - dictionaries have no prototype, like the binary reader's, so "__proto__" is an ordinary key
 *   (plist threw on it);
 * - line ends are normalized as XML 1.0 says (CRLF and CR → LF) but U+0085, U+2028 and U+2029
 *   are kept, where xmldom turned them into "\n" (XML 1.1 rules);
 * - character data is the concatenation of all text and CDATA of an element, where plist read
 *   only the first text node of <key>, <integer> and <date>, and no CDATA in <real> or <data>;
 * - processing instructions are skipped anywhere (plist threw on one inside <plist>).
 */
import type { PlistDict, PlistValue } from "./plist-value";

export class PlistParseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PlistParseError";
  }
}

export interface XmlPlistOptions {
  /** Dictionaries and arrays nested deeper than this throw (the outermost one is depth 1). */
  maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 64;
/** Longest entity reference we read between "&" and ";" ("#x10FFFF" plus a few leading zeros). */
const MAX_REFERENCE_LENGTH = 12;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const AMP = 0x26;
const SEMI = 0x3b;
const CR = 0x0d;
const LF = 0x0a;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOS = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const PREDEFINED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const SCALARS = new Set(["string", "key", "integer", "real", "date", "data", "true", "false", "null"]);

type Frame =
  | { name: "plist" | "array"; items: PlistValue[] }
  | { name: "dict"; dict: PlistDict; key: string | undefined };

export function parseXmlPlist(text: string, options: XmlPlistOptions = {}): PlistValue {
  return new XmlPlistScanner(text, options.maxDepth ?? DEFAULT_MAX_DEPTH).document();
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === LF || c === 0x09 || c === CR;
}

/** Anything that cannot end a tag or attribute name; the names we accept are checked afterwards. */
function isNameChar(c: number): boolean {
  return (
    c > 0x20 &&
    c !== LT &&
    c !== GT &&
    c !== SLASH &&
    c !== EQUALS &&
    c !== QUOTE &&
    c !== APOS &&
    c !== AMP &&
    c !== 0x21 && // !
    c !== 0x3f && // ?
    c !== 0x7f
  );
}

function isAllSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

function normalizeLineEnds(s: string): string {
  return s.includes("\r") ? s.replace(/\r\n?/g, "\n") : s;
}

class XmlPlistScanner {
  private pos = 0;

  constructor(
    private readonly s: string,
    private readonly maxDepth: number,
  ) {}

  document(): PlistValue {
    const { s } = this;
    if (s.charCodeAt(0) === 0xfeff) this.pos = 1;
    let doctype = false;
    for (;;) {
      this.skipSpace();
      if (this.pos >= s.length) this.fail("no <plist> element");
      if (this.at("<?")) this.skipProcessingInstruction();
      else if (this.at("<!--")) this.skipComment();
      else if (this.at("<!DOCTYPE") && !doctype) {
        doctype = true;
        this.skipDoctype();
      } else if (s.charCodeAt(this.pos) === LT) break;
      else this.fail("text before the root element");
    }
    const rootStart = this.pos;
    const root = this.startTag();
    if (root.name !== "plist") this.fail(`root element is <${root.name}>, not <plist>`, rootStart);
    const value = root.selfClosing ? [] : this.content();
    for (;;) {
      this.skipSpace();
      if (this.pos >= s.length) return value;
      if (this.at("<?")) this.skipProcessingInstruction();
      else if (this.at("<!--")) this.skipComment();
      else this.fail("content after </plist>");
    }
  }

  /** Everything inside <plist>, up to and including </plist>. */
  private content(): PlistValue {
    const stack: Frame[] = [{ name: "plist", items: [] }];
    for (;;) {
      const frame = stack[stack.length - 1]!;
      this.skipBetweenValues(frame.name);
      if (this.at("</")) {
        this.endTag(frame.name);
        stack.pop();
        const value = close(frame);
        const parent = stack[stack.length - 1];
        if (!parent) return value;
        add(parent, value);
        continue;
      }
      const tagStart = this.pos;
      const tag = this.startTag();
      if (frame.name === "dict") {
        if (frame.key === undefined) {
          if (tag.name !== "key") this.fail(`<${tag.name}> where <dict> expects a <key>`, tagStart);
          frame.key = tag.selfClosing ? "" : this.characterData("key");
          continue;
        }
        if (tag.name === "key") this.fail(`<key> where <dict> expects the value of "${frame.key}"`, tagStart);
      }
      if (tag.name === "dict" || tag.name === "array") {
        // stack holds the <plist> frame plus every open container.
        if (stack.length > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, tagStart);
        const container: Frame =
          tag.name === "dict" ? { name: "dict", dict: newDict(), key: undefined } : { name: "array", items: [] };
        if (tag.selfClosing) add(frame, close(container));
        else stack.push(container);
      } else if (SCALARS.has(tag.name)) {
        add(frame, this.scalar(tag.name, tag.selfClosing ? "" : this.characterData(tag.name), tagStart));
      } else {
        this.fail(`unknown element <${tag.name}>`, tagStart);
      }
    }
  }

  private scalar(name: string, text: string, at: number): PlistValue {
    switch (name) {
      case "true":
        return true;
      case "false":
        return false;
      case "null":
        return null;
      case "data":
        return Buffer.from(text.replace(/\s+/g, ""), "base64");
      case "integer":
      case "real":
      case "date":
        if (text === "") this.fail(`empty <${name}>`, at);
        if (name === "integer") return parseInt(text, 10);
        if (name === "real") return parseFloat(text);
        return new Date(text);
      default:
        return text; // <string>, <key>
    }
  }

  /** Whitespace, comments and processing instructions between the children of a container. */
  private skipBetweenValues(container: string): void {
    const { s } = this;
    for (;;) {
      if (this.pos >= s.length) this.fail(`unterminated <${container}>`);
      const c = s.charCodeAt(this.pos);
      if (isSpace(c)) this.pos++;
      else if (c !== LT) this.fail(`text inside <${container}>`);
      else if (this.at("<!--")) this.skipComment();
      else if (this.at("<?")) this.skipProcessingInstruction();
      else if (this.at("<![CDATA[")) {
        const start = this.pos;
        if (!isAllSpace(this.cdata())) this.fail(`text inside <${container}>`, start);
      } else return;
    }
  }

  /** Text and CDATA of a scalar element, entities decoded, up to and including its end tag. */
  private characterData(name: string): string {
    const { s } = this;
    let out = "";
    for (;;) {
      const lt = s.indexOf("<", this.pos);
      if (lt < 0) this.fail(`unterminated <${name}>`);
      if (lt > this.pos) out += this.decodeText(this.pos, lt);
      this.pos = lt;
      if (this.at("</")) {
        this.endTag(name);
        return out;
      }
      if (this.at("<![CDATA[")) out += normalizeLineEnds(this.cdata());
      else if (this.at("<!--")) this.skipComment();
      else if (this.at("<?")) this.skipProcessingInstruction();
      else this.fail(`element or "<" inside <${name}>`);
    }
  }

  /** s[start, end) with references replaced and line ends normalized. */
  private decodeText(start: number, end: number): string {
    const { s } = this;
    let out = "";
    let run = start;
    let i = start;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === AMP) {
        out += s.slice(run, i);
        let semi = i + 1;
        while (semi < end && semi - i <= MAX_REFERENCE_LENGTH && s.charCodeAt(semi) !== SEMI) semi++;
        if (s.charCodeAt(semi) !== SEMI || semi >= end) this.fail('"&" that starts no reference', i);
        out += this.reference(s.slice(i + 1, semi), i);
        i = semi + 1;
        run = i;
      } else if (c === CR) {
        out += s.slice(run, i) + "\n";
        i += i + 1 < end && s.charCodeAt(i + 1) === LF ? 2 : 1;
        run = i;
      } else {
        i++;
      }
    }
    return out + s.slice(run, end);
  }

  private reference(name: string, at: number): string {
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    let code = NaN;
    if (/^#x[0-9a-fA-F]+$/.test(name)) code = parseInt(name.slice(2), 16);
    else if (/^#[0-9]+$/.test(name)) code = parseInt(name.slice(1), 10);
    else this.fail(`unknown entity &${name};`, at);
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
      this.fail(`invalid character reference &${name};`, at);
    }
    return String.fromCodePoint(code);
  }

  /** `<name attr="…" …>` or `<name …/>`; attributes are checked for syntax and ignored. */
  private startTag(): { name: string; selfClosing: boolean } {
    const { s } = this;
    const start = this.pos;
    this.pos++; // <
    const name = this.name();
    for (;;) {
      const spaced = this.skipSpace();
      if (this.pos >= s.length) this.fail(`unterminated <${name}> tag`, start);
      const c = s.charCodeAt(this.pos);
      if (c === GT) {
        this.pos++;
        return { name, selfClosing: false };
      }
      if (c === SLASH) {
        if (s.charCodeAt(this.pos + 1) !== GT) this.fail(`malformed <${name}> tag`, start);
        this.pos += 2;
        return { name, selfClosing: true };
      }
      if (!spaced) this.fail(`malformed <${name}> tag`, start);
      this.name();
      this.skipSpace();
      if (s.charCodeAt(this.pos) !== EQUALS) this.fail(`malformed attribute in <${name}>`, start);
      this.pos++;
      this.skipSpace();
      const quote = s.charCodeAt(this.pos);
      if (quote !== QUOTE && quote !== APOS) this.fail(`unquoted attribute in <${name}>`, start);
      const close = s.indexOf(quote === QUOTE ? '"' : "'", this.pos + 1);
      if (close < 0) this.fail(`unterminated <${name}> tag`, start);
      if (s.slice(this.pos + 1, close).includes("<")) this.fail(`"<" in an attribute of <${name}>`, start);
      this.pos = close + 1;
    }
  }

  private endTag(expected: string): void {
    const start = this.pos;
    this.pos += 2; // </
    const name = this.name();
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) !== GT) this.fail(`unterminated </${name}> tag`, start);
    if (name !== expected) this.fail(`</${name}> closes <${expected}>`, start);
    this.pos++;
  }

  private name(): string {
    const { s } = this;
    const start = this.pos;
    while (this.pos < s.length && isNameChar(s.charCodeAt(this.pos))) this.pos++;
    if (this.pos === start) this.fail("malformed tag", start - 1);
    return s.slice(start, this.pos);
  }

  /** At "<![CDATA["; returns the raw content and moves past "]]>". */
  private cdata(): string {
    const start = this.pos + "<![CDATA[".length;
    const end = this.s.indexOf("]]>", start);
    if (end < 0) this.fail("unterminated CDATA section");
    this.pos = end + 3;
    return this.s.slice(start, end);
  }

  private skipComment(): void {
    const end = this.s.indexOf("-->", this.pos + 4);
    if (end < 0) this.fail("unterminated comment");
    this.pos = end + 3;
  }

  private skipProcessingInstruction(): void {
    const end = this.s.indexOf("?>", this.pos + 2);
    if (end < 0) this.fail("unterminated processing instruction");
    this.pos = end + 2;
  }

  /** `<!DOCTYPE …>` with quoted ids and an optional [internal subset], all ignored. */
  private skipDoctype(): void {
    const { s } = this;
    const start = this.pos;
    this.pos += "<!DOCTYPE".length;
    let subset = false;
    for (;;) {
      if (this.pos >= s.length) this.fail("unterminated DOCTYPE", start);
      const c = s.charCodeAt(this.pos);
      if (c === QUOTE || c === APOS) this.skipQuoted(start);
      else if (subset && this.at("<!--")) this.skipComment();
      else if (subset && this.at("<?")) this.skipProcessingInstruction();
      else if (c === OPEN_BRACKET && !subset) {
        subset = true;
        this.pos++;
      } else if (c === CLOSE_BRACKET && subset) {
        subset = false;
        this.pos++;
      } else if (c === GT && !subset) {
        this.pos++;
        return;
      } else this.pos++;
    }
  }

  private skipQuoted(start: number): void {
    const quote = this.s[this.pos]!;
    const end = this.s.indexOf(quote, this.pos + 1);
    if (end < 0) this.fail("unterminated DOCTYPE", start);
    this.pos = end + 1;
  }

  /** Returns whether any whitespace was skipped. */
  private skipSpace(): boolean {
    const start = this.pos;
    while (this.pos < this.s.length && isSpace(this.s.charCodeAt(this.pos))) this.pos++;
    return this.pos > start;
  }

  private at(token: string): boolean {
    return this.s.startsWith(token, this.pos);
  }

  private fail(message: string, at = this.pos): never {
    throw new PlistParseError(`XML plist: ${message} at offset ${at}`);
  }
}

/** No prototype, so "__proto__" or "constructor" keys are plain entries (as in the binary reader). */
function newDict(): PlistDict {
  return Object.create(null) as PlistDict;
}

function add(frame: Frame, value: PlistValue): void {
  if (frame.name === "dict") {
    frame.dict[frame.key!] = value;
    frame.key = undefined;
  } else if (frame.name === "plist" || value !== null) {
    frame.items.push(value);
  }
}

function close(frame: Frame): PlistValue {
  if (frame.name === "dict") {
    if (frame.key !== undefined) frame.dict[frame.key] = "";
    return frame.dict;
  }
  if (frame.name === "plist" && frame.items.length === 1) return frame.items[0]!;
  return frame.items;
}
