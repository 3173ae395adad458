import { createHash } from 'node:crypto';
import type { RolloutWaveSpec } from './rollout-schema.js';

// Which wave each member of an environment belongs to. Pure and deterministic: the same members
// and waves always give the same assignment, and a percentage picks members spread by a hash of
// their names (not alphabetically: `store-001` to `store-100` would all be in one region).

/** A member as the assignment sees it. */
export interface WaveCandidate {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** Code-point order: names and hex are ASCII, and `localeCompare` costs ICU time per call. Pure. */
export const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order in which percentages pick members: by the SHA-256 of the name, then the name. */
function spread(members: readonly WaveCandidate[]): WaveCandidate[] {
  const key = new Map(members.map((m) => [m.name, createHash('sha256').update(m.name).digest('hex')]));
  return [...members].sort((a, b) => byCode(key.get(a.name)!, key.get(b.name)!) || byCode(a.name, b.name));
}

const matches = (wave: RolloutWaveSpec, m: WaveCandidate) =>
  (wave.selector ?? []).every(({ key, value }) => m.labels[key] === value);

/**
 * The wave index of every member, by `waves` in order: a wave takes the members not in an earlier
 * wave that match its selector (all of them without one), and of those only `percent` (rounded up,
 * at least one) when it has one. A member no wave takes gets -1 (it is never released; the status
 * says `NotInAnyWave`).
 *
 * @example
 * assignWaves([{ name: 'canary', selector: [{ key: 'ring', value: 'canary' }] }, { name: 'rest' }], members)
 */
export function assignWaves(
  waves: readonly RolloutWaveSpec[],
  members: readonly WaveCandidate[],
): Map<string, number> {
  const out = new Map<string, number>();
  let left = spread(members);
  waves.forEach((wave, index) => {
    const matching = left.filter((m) => matches(wave, m));
    const take =
      wave.percent === undefined
        ? matching
        : matching.slice(0, Math.max(1, Math.ceil((matching.length * wave.percent) / 100)));
    for (const m of take) out.set(m.name, index);
    const taken = new Set(take.map((m) => m.name));
    left = left.filter((m) => !taken.has(m.name));
  });
  for (const m of left) out.set(m.name, -1);
  return out;
}

/** `3` → 3; `10%` of `total` → rounded down (`roundUp`: up); never below `min`. Pure. */
export function countOf(value: string, total: number, opts: { min: number; roundUp?: boolean }): number {
  const percent = /^(\d+)%$/.exec(value);
  const raw = percent
    ? (opts.roundUp ? Math.ceil : Math.floor)((total * Number(percent[1])) / 100)
    : Number(value);
  return Math.max(opts.min, Number.isFinite(raw) ? raw : opts.min);
}
