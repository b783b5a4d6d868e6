import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/**
 * A document client that records every call it sends, for tests and benches that count how many
 * storage round trips an operation waits for one after another. A call's depth is one more than
 * the deepest call that had already answered when it was sent: calls sent together (Promise.all)
 * share a depth, a call awaited after another is one deeper. `depth()` is the longest such chain,
 * what the operation's latency is made of; `calls()` names every command sent.
 */
export function countingClient(inner: DynamoDBDocumentClient) {
  let log: { name: string; sentAt: number; answeredAt: number; depth: number }[] = [];
  let tick = 0;
  const send = (async (command: { constructor: { name: string } }, ...rest: unknown[]) => {
    const sentAt = ++tick;
    const depth = 1 + Math.max(0, ...log.filter((c) => c.answeredAt < sentAt).map((c) => c.depth));
    const entry = { name: command.constructor.name.replace(/Command$/, ""), sentAt, answeredAt: Number.POSITIVE_INFINITY, depth };
    log.push(entry);
    try {
      return await (inner.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    } finally {
      entry.answeredAt = ++tick;
    }
  }) as DynamoDBDocumentClient["send"];
  // Everything else (config, middlewareStack) is the real client's: adapters only call send.
  const client = new Proxy(inner, { get: (target, prop, receiver) => (prop === "send" ? send : Reflect.get(target, prop, receiver)) });
  return {
    client,
    reset: () => {
      log = [];
    },
    depth: () => Math.max(0, ...log.map((c) => c.depth)),
    calls: () => log.map((c) => `${c.name}@${c.depth}`),
  };
}
