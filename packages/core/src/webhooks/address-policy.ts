import { isIP } from "node:net";

/**
 * Which addresses a webhook may reach: public unicast only. A receiver URL is typed by a
 * workspace member, so without this check it would be a way to make the service call what only
 * it can reach (the cloud's metadata service at 169.254.169.254 / fd00:ec2::254, a VPC's private
 * hosts, the machine itself): server-side request forgery. The check runs on every address a
 * name resolves to and again on the connected socket (safe-request.ts).
 *
 * Written as explicit prefix tables over the address's bytes rather than with `net.BlockList`:
 * the IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are unwrapped and the IPv4 address checked like any
 * other, which is the part such lists most often miss.
 */

type Range = readonly [prefix: readonly number[], bits: number, reason: string];

const V4: readonly Range[] = [
  [[0], 8, "unspecified"],
  [[10], 8, "private"],
  [[100, 64], 10, "shared (CGNAT)"],
  [[127], 8, "loopback"],
  [[169, 254], 16, "link-local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "reserved"],
  [[192, 0, 2], 24, "documentation"],
  [[192, 88, 99], 24, "reserved"],
  [[192, 168], 16, "private"],
  [[198, 18], 15, "benchmarking"],
  [[198, 51, 100], 24, "documentation"],
  [[203, 0, 113], 24, "documentation"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved"],
];

/** IPv6 prefixes as 16-bit groups. */
const V6: readonly Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified"],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"],
  [[0x100, 0, 0, 0], 64, "discard"],
  [[0x2001, 0xdb8], 32, "documentation"],
  [[0xfc00], 7, "private (unique local)"],
  [[0xfe80], 10, "link-local"],
  [[0xfec0], 10, "site-local"],
  [[0xff00], 8, "multicast"],
];

/** The two addresses `HANGAR_WEBHOOK_ALLOW_LOOPBACK=1` lets through (local stack only). */
const LOOPBACK_ALLOWED = new Set(["127.0.0.1", "::1"]);

function inRange(value: readonly number[], width: number, prefix: readonly number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= width) {
    const take = Math.min(width, bits);
    const mask = ((1 << take) - 1) << (width - take);
    if (((value[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(address: string): number[] {
  return address.split(".").map(Number);
}

/** An IPv6 address's eight 16-bit groups (already checked by `isIP`); a trailing dotted quad and a zone (`%eth0`) are handled. */
export function v6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const tail: number[] = [];
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = v4Bytes(quad[1]!) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -quad[1]!.length);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((h) => parseInt(h, 16)));
  let groups: number[];
  if (text.includes("::")) {
    const [left, right] = text.split("::").map(parse) as [number[], number[]];
    groups = [...left, ...new Array<number>(8 - tail.length - left.length - right.length).fill(0), ...right];
  } else {
    groups = parse(text);
  }
  return [...groups, ...tail];
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(g: number[]): string | undefined {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!); // ::a.b.c.d (deprecated "compatible")
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!); // 6to4
  return undefined;
}

/**
 * Why an address may not be reached (`"loopback"`, `"private"`, `"link-local"`, …), or undefined
 * when it may. `allowLoopback` lets exactly 127.0.0.1 and ::1 through (also as ::ffff:127.0.0.1);
 * nothing else, so even then a private or metadata address stays refused.
 */
export function refusalOf(address: string, allowLoopback = false): string | undefined {
  const family = isIP(address.split("%")[0]!);
  if (family === 4) {
    if (allowLoopback && LOOPBACK_ALLOWED.has(address)) return undefined;
    if (address === "255.255.255.255") return "broadcast";
    if (address === "169.254.169.254") return "cloud metadata";
    const bytes = v4Bytes(address);
    return V4.find(([prefix, bits]) => inRange(bytes, 8, prefix, bits))?.[2];
  }
  if (family === 6) {
    const groups = v6Groups(address);
    if (allowLoopback && groups.slice(0, 7).every((x) => x === 0) && groups[7] === 1) return undefined;
    if (groups.join(":") === "64768:3778:0:0:0:0:0:596") return "cloud metadata"; // fd00:ec2::254
    const v4 = embeddedV4(groups);
    if (v4 !== undefined) {
      const reason = refusalOf(v4, allowLoopback);
      return reason === undefined ? undefined : `${reason} (IPv4 inside IPv6)`;
    }
    return V6.find(([prefix, bits]) => inRange(groups, 16, prefix, bits))?.[2];
  }
  return "not an IP address";
}
