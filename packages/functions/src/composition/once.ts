/**
 * The one way the composition root builds anything: on first use, then the same value for the
 * container's life. Nothing is built at import, so importing a handler does no I/O and a function
 * pays only for what its first request needs.
 *
 * A value that is a promise (an adapter whose SDK is imported on first use) is forgotten when it
 * rejects, so the next call tries again instead of failing for the rest of the container's life.
 * Hand-written `let x; if (x) return x;` singletons are what this replaces; a getter that takes
 * arguments cannot be one (the first call's arguments would silently win).
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    if (built) return built.value;
    const cell = { value: build() };
    built = cell;
    if (cell.value instanceof Promise) {
      cell.value.catch(() => {
        if (built === cell) built = undefined;
      });
    }
    return cell.value;
  };
}
