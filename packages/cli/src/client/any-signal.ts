/**
 * `AbortSignal.any` where Node has it (20.3+), else the same behaviour by hand: the package
 * promises Node 18, which CI images still carry. Aborts with the reason of the first signal
 * that aborts; the fallback drops its listeners once it has fired.
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any(signals as AbortSignal[]);
  const controller = new AbortController();
  const already = signals.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return controller.signal;
  }
  const onAbort = (event: Event) => {
    for (const s of signals) s.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const s of signals) s.addEventListener("abort", onAbort);
  return controller.signal;
}
