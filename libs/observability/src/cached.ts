// A probe answered from memory for `ttlMs` after each real check, and concurrent callers share the
// check in flight: a burst of probes (load balancers, Prometheus, `npm start` polling) costs one round of
// dependency checks a second however many ask.
export function cachedFor<T>(ttlMs: number, check: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  let last: { value: Promise<T>; at: number } | undefined;
  return () => {
    if (last && now() - last.at < ttlMs) return last.value;
    if (inFlight) return inFlight;
    const running = check();
    inFlight = running;
    const done = () => {
      inFlight = undefined;
      last = { value: running, at: now() };
    };
    running.then(done, done);
    return running;
  };
}
