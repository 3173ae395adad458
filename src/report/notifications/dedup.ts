/**
 * When each alert key was last sent (ms since the epoch). A value: `remember` returns a new one.
 * Keys older than the window are dropped as new ones come, so the map stays as small as the
 * number of distinct alerts within one window.
 */
export type AlertMemory = ReadonlyMap<string, number>;

/** Whether `key` may be sent at `now`: not sent within `windowMs` before. */
export function isFresh(memory: AlertMemory, key: string, now: number, windowMs: number): boolean {
  const at = memory.get(key);
  return at === undefined || now - at >= windowMs;
}

/** `memory` with `keys` sent at `now`, and without the keys whose window has passed. */
export function remember(
  memory: AlertMemory,
  keys: readonly string[],
  now: number,
  windowMs: number,
): AlertMemory {
  const next = new Map([...memory].filter(([, at]) => now - at < windowMs));
  for (const key of keys) next.set(key, now);
  return next;
}
