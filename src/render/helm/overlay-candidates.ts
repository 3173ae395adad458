import type { ValueOrigin } from '../synth/overlays.js';

/**
 * The overlay values a chart value probably came from, when platform code passed it on (pure).
 * What platform code does with overlay values cannot be known from outside it, so this matches
 * by value: overlay scalars equal to `value` (a string or a number, compared as text, as code may
 * have converted it), those whose last key resembles the chart key's first (`replicas` for
 * `replicaCount`), at most `max`. None for another type, or when nothing holds the same value.
 */
export function overlayCandidates(
  value: unknown,
  chartKey: readonly string[],
  origins: readonly ValueOrigin[],
  max = 3,
): ValueOrigin[] {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  const text = String(value);
  const last = (chartKey.at(-1) ?? '').toLowerCase();
  const score = (o: ValueOrigin) => commonPrefix(last, (o.key.split('.').at(-1) ?? '').toLowerCase());
  return origins
    .filter((o) => o.value === text)
    .map((o, i) => ({ o, i, s: score(o) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, max)
    .map(({ o }) => o);
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
