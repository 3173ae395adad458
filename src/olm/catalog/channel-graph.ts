import type { Channel, ChannelEntry, ExcludedEntry } from './model.js';

/**
 * Builds a channel's upgrade graph the way OLM's resolver sorts it.
 *
 * Mirrors `sortChannel` (operator-lifecycle-manager
 * `pkg/controller/registry/resolver/resolver.go`) and `Channel.Head`
 * (operator-registry `alpha/model/model.go`):
 * - an entry is "replaced" when another entry of the same channel names it in
 *   `replaces` or `skips` (names outside the channel are ignored);
 * - the head is the single entry nothing replaces; none or several is a problem;
 * - the order walks `replaces` from the head and leaves out every entry that
 *   another entry skips, so skipped entries are never offered as updates.
 *
 * Does not look at bundles or versions; `skipRange` plays no part in the order.
 *
 * @example
 * buildChannel('foo', 'beta', [{ name: 'foo.v1', skips: [] }, { name: 'foo.v2', replaces: 'foo.v1', skips: [] }]).order
 * // ['foo.v2', 'foo.v1']
 */
export function buildChannel(pkg: string, name: string, entries: readonly ChannelEntry[]): Channel {
  const byName = new Map<string, ChannelEntry>();
  const problems: string[] = [];
  for (const e of entries) {
    if (byName.has(e.name)) problems.push(`entry ${e.name} appears more than once`);
    byName.set(e.name, e);
  }

  const replaced = new Set<string>();
  const skippedBy = new Map<string, string[]>();
  for (const e of entries) {
    if (e.replaces !== undefined && byName.has(e.replaces)) replaced.add(e.replaces);
    for (const s of e.skips) {
      if (!byName.has(s)) continue;
      replaced.add(s);
      // push, not a spread: an entry skipped by k others would otherwise cost k² copies.
      const by = skippedBy.get(s);
      if (by) by.push(e.name);
      else skippedBy.set(s, [e.name]);
    }
  }

  const heads = [...byName.keys()].filter((n) => !replaced.has(n));
  if (heads.length === 0 && byName.size > 0) {
    problems.push('no channel head: every entry is replaced or skipped by another (a cycle)');
  } else if (heads.length > 1) {
    problems.push(
      `${heads.length} channel heads (${heads.join(', ')}): OLM needs exactly one entry nothing replaces`,
    );
  }

  const order: string[] = [];
  const head = heads.length === 1 ? heads[0] : undefined;
  if (head !== undefined) {
    const visited = new Set<string>();
    for (let cur: string | undefined = head; cur !== undefined;) {
      if (visited.has(cur)) {
        problems.push(`the replaces chain from ${head} loops back to ${cur}`);
        break;
      }
      visited.add(cur);
      if (!skippedBy.has(cur)) order.push(cur);
      const next: string | undefined = byName.get(cur)?.replaces;
      cur = next !== undefined && byName.has(next) ? next : undefined;
    }
  }

  if (problems.length > 0) {
    return { package: pkg, name, entries, head: undefined, order: [], excluded: [], problems };
  }
  const inOrder = new Set(order);
  const excluded: ExcludedEntry[] = [...byName.keys()]
    .filter((n) => !inOrder.has(n))
    .map((n) => {
      const by = skippedBy.get(n);
      return by ? { name: n, why: 'skipped' as const, by } : { name: n, why: 'off-chain' as const, by: [] };
    });
  return { package: pkg, name, entries, head, order, excluded, problems };
}
