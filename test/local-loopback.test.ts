import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stack } from "./support/api";

/**
 * Nothing the local stack opens is reachable from another machine: DynamoDB Local and MailDev
 * have no authentication at all. Read from the kernel's socket tables (no traffic is sent
 * anywhere): every listening socket of the stack's process and of its JVM is on loopback.
 */
interface Listener {
  address: string;
  port: number;
  inode: string;
}

/** /proc/net/tcp{,6}: hex address in kernel byte order, state 0A = LISTEN. */
function listeners(): Listener[] {
  const out: Listener[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(file, "utf8").trim().split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== "0A") continue;
      const [hex, port] = fields[1]!.split(":") as [string, string];
      // Each 32-bit word is little-endian: reverse its bytes.
      const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) => word.match(/../g)!.reverse().map((b) => parseInt(b, 16)));
      out.push({ address: formatAddress(bytes), port: parseInt(port, 16), inode: fields[9]! });
    }
  }
  return out;
}

function formatAddress(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join(".");
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return `::ffff:${bytes.slice(12).join(".")}`;
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(":");
}

const isLoopback = (address: string) => address.startsWith("127.") || address.startsWith("::ffff:127.") || address === "0:0:0:0:0:0:0:1";

/** Socket inodes a process holds (its open file descriptors). */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

describe("the local stack listens on loopback only", () => {
  it("every listening socket of the stack and its DynamoDB Local JVM is 127.0.0.1, and they are the five service ports", () => {
    const s = stack();
    const jvm = Number(readFileSync(join(s.dataDir, "dynamodb.pid"), "utf8"));
    const owned = new Set([...socketInodes(s.pid), ...socketInodes(jvm)]);
    const mine = listeners().filter((l) => owned.has(l.inode));

    const ports = [s.baseUrl, s.s3Endpoint, s.dynamoEndpoint, s.mailUrl].map((url) => Number(new URL(url).port)).concat(s.smtpPort);
    expect(new Set(mine.map((l) => l.port))).toEqual(new Set(ports));
    for (const l of mine) expect(isLoopback(l.address), `${l.address}:${l.port}`).toBe(true);

    // DynamoDB Local in particular: the JVM's own sockets.
    const jvmListeners = listeners().filter((l) => socketInodes(jvm).has(l.inode));
    expect(jvmListeners.map((l) => l.port)).toEqual([Number(new URL(s.dynamoEndpoint).port)]);
    expect(jvmListeners.every((l) => isLoopback(l.address))).toBe(true);
  });

  it("runs DynamoDB Local with telemetry disabled", () => {
    const jvm = Number(readFileSync(join(stack().dataDir, "dynamodb.pid"), "utf8"));
    const args = readFileSync(`/proc/${jvm}/cmdline`, "utf8").split("\0");
    expect(args).toContain("-disableTelemetry");
  });
});
