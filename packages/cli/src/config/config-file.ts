import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { UsageError } from "../command";

/** The settings a config file can hold: the same three as the HANGAR_* variables. */
export interface FileSettings {
  url?: string;
  clientId?: string;
  clientSecret?: string;
}

export interface LoadedConfig {
  settings: FileSettings;
  /** For stderr: e.g. the file is readable by other users. Never contains a value. */
  warnings: string[];
}

/** A credentials file is a few hundred bytes; anything far larger is the wrong file. */
const MAX_CONFIG_BYTES = 64 * 1024;

/** Both spellings are accepted in JSON; dotenv files use the variable names. */
const KEYS: Record<string, keyof FileSettings> = {
  HANGAR_URL: "url",
  HANGAR_CLIENT_ID: "clientId",
  HANGAR_CLIENT_SECRET: "clientSecret",
  url: "url",
  clientId: "clientId",
  clientSecret: "clientSecret",
};

/**
 * Reads `--config <file>` / `HANGAR_CONFIG`: JSON (`{"url","clientId","clientSecret"}` or the
 * HANGAR_* names) or dotenv (`HANGAR_URL=…` lines), so the secret need not be exported in a
 * shell or typed into one. Errors name the file and the line or key, never a value: the file
 * holds a secret. Keys other than the three are ignored (a shared .env may hold more).
 */
export function loadConfigFile(path: string): LoadedConfig {
  const { text, mode } = readSmallFile(path);
  const warnings: string[] = [];
  // Group or world access to a file holding a secret: warn, as ssh does, but do not refuse
  // (CI workspaces are often created with a 022 umask and the job is alone on the machine).
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(3, "0");
    warnings.push(`${path} can be read by other users (mode ${octal}); run: chmod 600 ${path}`);
  }
  const body = text.replace(/^\uFEFF/, "");
  const json = /\.json$/i.test(path) || /^\s*[{[]/.test(body);
  const settings = json ? parseJson(path, body) : parseDotenv(path, body);
  return { settings, warnings };
}

function readSmallFile(path: string): { text: string; mode: number } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (code ?? "cannot open");
    throw new UsageError(`cannot read the config file ${path}: ${why}`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UsageError(`the config file ${path} is not a regular file`);
    if (info.size > MAX_CONFIG_BYTES) throw new UsageError(`the config file ${path} is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
    const buffer = Buffer.alloc(info.size);
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { text: buffer.subarray(0, filled).toString("utf8"), mode: info.mode };
  } finally {
    closeSync(fd);
  }
}

function parseJson(path: string, text: string): FileSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error, which may be the secret.
    throw new UsageError(`the config file ${path} is not valid JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`the config file ${path} must hold a JSON object`);
  }
  const settings: FileSettings = {};
  for (const [key, value] of Object.entries(parsed)) {
    const field = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
    if (!field) continue;
    if (typeof value !== "string") throw new UsageError(`the config file ${path}: "${key}" must be a string`);
    settings[field] = value;
  }
  return settings;
}

/** dotenv as CI tools write it: NAME=value, optional `export `, # comments, '…' or "…" quoting. */
function parseDotenv(path: string, text: string): FileSettings {
  const settings: FileSettings = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) throw new UsageError(`the config file ${path}: line ${index + 1} is not NAME=value`);
    const [, name, rest] = match as unknown as [string, string, string];
    const value = dotenvValue(rest);
    if (value === undefined) throw new UsageError(`the config file ${path}: line ${index + 1} has an unclosed quote`);
    const field = Object.hasOwn(KEYS, name) && name.startsWith("HANGAR_") ? KEYS[name] : undefined;
    if (field) settings[field] = value;
  });
  return settings;
}

function dotenvValue(rest: string): string | undefined {
  if (rest.startsWith("'")) {
    const end = rest.indexOf("'", 1);
    return end < 0 ? undefined : rest.slice(1, end);
  }
  if (rest.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    return quoted ? quoted[1]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c)) : undefined;
  }
  // Unquoted: a " #" starts a comment, as in shells and the dotenv libraries.
  return rest.replace(/\s+#.*$/, "").trim();
}
