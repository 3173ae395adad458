import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  buildChannel,
  upgradePath,
  type Bundle,
  type Catalog,
  type Channel,
  type ChannelEntry,
  type Hop,
} from '../../src/olm/index.js';

const name = (i: number) => `op.v1.${i}.0`;
const version = (i: number) => `1.${i}.0`;

/**
 * A random channel of n entries op.v1.0.0 … op.v1.<n-1>.0. Each entry after the
 * first replaces an earlier one (mostly its predecessor), may skip earlier ones
 * and may carry a skipRange. Entries nothing replaces or skips are then added
 * to the last entry's skips, so that the channel has one head, like a valid catalog.
 */
const channelArbOf = (opts: { skips: boolean }) =>
  fc.integer({ min: 2, max: 8 }).chain((n) =>
    fc
      .tuple(
        ...Array.from({ length: n - 1 }, (_, k) => {
          const i = k + 1;
          return fc.record({
            replaces: fc.oneof(
              { arbitrary: fc.constant(i - 1), weight: 3 },
              { arbitrary: fc.nat(i - 1), weight: 1 },
            ),
            skips: opts.skips
              ? fc.subarray(Array.from({ length: i }, (_, j) => j))
              : fc.constant<number[]>([]),
            skipRange: fc.option(
              fc
                .tuple(fc.nat(i), fc.nat(i))
                .map(([a, b]) => (a < b ? `>=1.${a}.0 <1.${b}.0` : `<1.${Math.max(a, b)}.0`)),
              { nil: undefined },
            ),
          });
        }),
      )
      .map((specs) => {
        const entries: ChannelEntry[] = [{ name: name(0), skips: [] }];
        specs.forEach((s, k) => {
          entries.push({
            name: name(k + 1),
            replaces: name(s.replaces),
            skips: s.skips.map(name),
            ...(s.skipRange ? { skipRange: s.skipRange } : {}),
          });
        });
        const covered = new Set(entries.flatMap((e) => [e.replaces, ...e.skips]));
        const last = entries[n - 1] as ChannelEntry;
        const strays = entries
          .slice(0, -1)
          .filter((e) => !covered.has(e.name))
          .map((e) => e.name);
        entries[n - 1] = { ...last, skips: [...last.skips, ...strays] };
        return entries;
      }),
  );

const channelArb = channelArbOf({ skips: true });

function catalogOf(entries: ChannelEntry[]): { catalog: Catalog; channel: Channel } {
  const channel = buildChannel('op', 'stable', entries);
  const bundles = new Map<string, Bundle>(
    entries.map((e) => [
      e.name,
      {
        name: e.name,
        package: 'op',
        version: e.name.slice('op.v'.length),
        image: undefined,
        provides: [],
        dependencies: [],
      },
    ]),
  );
  const pkg = { name: 'op', defaultChannel: 'stable', channels: new Map([['stable', channel]]), bundles };
  return { catalog: { packages: new Map([['op', pkg]]) }, channel };
}

/** OLM's candidate rule, restated independently of src/olm/candidates.ts. */
function edges(e: ChannelEntry, csv: string, ver: string | undefined): string[] {
  if (e.name === csv) return [];
  return [
    ...(e.replaces === csv ? ['replaces'] : []),
    ...(e.skips.includes(csv) ? ['skips'] : []),
    ...(e.skipRange && ver && semver.satisfies(ver, e.skipRange, { includePrerelease: true })
      ? ['skipRange']
      : []),
  ];
}

/** Each hop is a candidate of the CSV before it, for the reasons it states, and nothing nearer the head is. */
function expectGreedyValid(
  channel: Channel,
  from: { csv: string; version: string | undefined },
  hops: readonly Hop[],
) {
  const byName = new Map(channel.entries.map((e) => [e.name, e]));
  let prev = from;
  for (const hop of hops) {
    const at = channel.order.indexOf(hop.csv);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(hop.replaces).toBe(prev.csv);
    expect(edges(byName.get(hop.csv) as ChannelEntry, prev.csv, prev.version)).toEqual(hop.via);
    for (const nearer of channel.order.slice(0, at)) {
      expect(edges(byName.get(nearer) as ChannelEntry, prev.csv, prev.version)).toEqual([]);
    }
    prev = { csv: hop.csv, version: hop.version };
  }
}

describe('upgradePath properties', () => {
  it('every hop is a valid candidate of the previous CSV and no candidate nearer the head exists', () => {
    fc.assert(
      fc.property(channelArb, fc.nat(), fc.nat(), fc.boolean(), (entries, fromSeed, toSeed, outsider) => {
        const { catalog, channel } = catalogOf(entries);
        expect(channel.problems).toEqual([]);
        // Either an entry of the channel, or a CSV the catalog no longer has, known by its version.
        const from = outsider
          ? { csv: 'op.v0.9.0', version: '0.9.0' }
          : { csv: name(fromSeed % entries.length), version: version(fromSeed % entries.length) };
        const to = name(toSeed % entries.length);
        const r = upgradePath(catalog, {
          package: 'op',
          channel: 'stable',
          from: from.csv,
          to,
          ...(outsider ? { fromVersion: from.version } : {}),
        });
        if (r.ok) {
          expectGreedyValid(channel, from, r.hops);
          if (from.csv !== to) expect(r.hops.at(-1)?.csv).toBe(to);
          expect(new Set(r.hops.map((h) => h.csv)).size).toBe(r.hops.length);
        } else {
          expectGreedyValid(channel, from, r.olmPath);
          expect(r.olmPath.some((h) => h.csv === to)).toBe(false);
          if (r.reason === 'jumped-past') {
            const toAt = channel.order.indexOf(to);
            expect(r.olmPath.some((h) => channel.order.indexOf(h.csv) < toAt)).toBe(true);
          }
          if (r.reason === 'target-skipped') expect(channel.order).not.toContain(to);
          expect(['downgrade', 'target-skipped', 'jumped-past', 'no-update-edge']).toContain(r.reason);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('without skips, every entry in the update order reaches the head', () => {
    fc.assert(
      fc.property(channelArbOf({ skips: false }), fc.nat(), (entries, seed) => {
        const { catalog, channel } = catalogOf(entries);
        const from = channel.order[seed % channel.order.length] as string;
        const r = upgradePath(catalog, {
          package: 'op',
          channel: 'stable',
          from,
          to: channel.head as string,
        });
        // The entry before `from` in the order replaces it and is not skipped, so there is always a candidate
        // and the nearest-head one moves strictly towards the head.
        expect(r.ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('with skips an entry can be stranded: its only replacer is skipped (found by fast-check)', () => {
    // op.v1.5.0 replaces op.v1.4.0 but op.v1.6.0 skips op.v1.5.0, so op.v1.5.0 is out of the order;
    // op.v1.4.0 stays in the order (the walk passes through op.v1.5.0) and nothing offers it an update.
    const e = (i: number, replaces?: number, skips: number[] = []): ChannelEntry => ({
      name: name(i),
      ...(replaces === undefined ? {} : { replaces: name(replaces) }),
      skips: skips.map(name),
    });
    const { catalog, channel } = catalogOf([e(0), e(4, 0), e(5, 4), e(6, 5, [5])]);
    expect(channel.order).toEqual(['op.v1.6.0', 'op.v1.4.0', 'op.v1.0.0']);
    const r = upgradePath(catalog, { package: 'op', channel: 'stable', from: 'op.v1.4.0', to: 'op.v1.6.0' });
    expect(r.ok ? 'ok' : r.reason).toBe('no-update-edge');
  });
});
