import { type Channel, releaseInChannel } from './channel.js';
import { type UpdateEdge, type UpdateGraph, edgesFrom } from './graph.js';
import { type SemVer, compareVersions, parseVersion } from './version.js';

interface RouteOptions {
  /** Intermediate releases and the target must be in this channel. */
  readonly channel?: Channel;
  /** Whether a risk (by name) is accepted; a conditional edge needs all of its risks accepted. */
  readonly accepts: (risk: string) => boolean;
  /** Diagnosis only: also use edges that skip minors. @default false */
  readonly allowSkippingMinors?: boolean;
}

type Cost = readonly [steps: number, conditional: number];

/**
 * The chosen forward route from `from` to `to`, or `undefined` when none exists. Usable edges go
 * forward, stay in the major, move at most one minor, and have all risks accepted; releases outside
 * `(from, to]` or outside the channel are not visited. The route minimises (steps, conditional
 * steps) and, among equals, takes the newest release at each step: costs are computed backwards
 * from `to` over releases in descending order (edges only go forward, so that order is topological),
 * then the route is walked forwards picking the newest optimal successor.
 */
export function findRoute(
  graph: UpdateGraph,
  from: SemVer,
  to: SemVer,
  options: RouteOptions,
): UpdateEdge[] | undefined {
  const versions = new Map<string, SemVer>();
  for (const node of graph.nodes) {
    const v = parseVersion(node.version)!;
    const inRange =
      compareVersions(node.version, from.version) >= 0 && compareVersions(node.version, to.version) <= 0;
    const inChannel =
      node.version === from.version || !options.channel || releaseInChannel(node, v, options.channel);
    if (inRange && inChannel) versions.set(node.version, v);
  }
  if (!versions.has(from.version) || !versions.has(to.version)) return undefined;
  const usable = (e: UpdateEdge): boolean => {
    const a = versions.get(e.from);
    const b = versions.get(e.to);
    if (!a || !b || compareVersions(e.to, e.from) <= 0 || a.major !== b.major) return false;
    if (b.minor - a.minor > 1 && !options.allowSkippingMinors) return false;
    return e.risks.every((r) => options.accepts(r.name));
  };
  const cost = new Map<string, Cost>([[to.version, [0, 0]]]);
  const through = (e: UpdateEdge): Cost | undefined => {
    const rest = cost.get(e.to);
    return rest && usable(e) ? [rest[0] + 1, rest[1] + (e.risks.length > 0 ? 1 : 0)] : undefined;
  };
  const descending = [...versions.keys()].sort((a, b) => compareVersions(b, a));
  for (const version of descending) {
    if (version === to.version) continue;
    for (const edge of edgesFrom(graph, version)) {
      const c = through(edge);
      const best = cost.get(version);
      if (c && (!best || less(c, best))) cost.set(version, c);
    }
  }
  if (!cost.has(from.version)) return undefined;
  const route: UpdateEdge[] = [];
  for (let at = from.version; at !== to.version;) {
    const target = cost.get(at)!;
    // edgesFrom is sorted by target version, so the last optimal edge reaches the newest release.
    const next = edgesFrom(graph, at)
      .filter((e) => same(through(e), target))
      .at(-1)!;
    route.push(next);
    at = next.to;
  }
  return route;
}

/**
 * The first minor strictly between `from` and `to` with no release in the graph (and channel), if
 * any: a route would have to skip it.
 */
export function missingMinor(
  graph: UpdateGraph,
  from: SemVer,
  to: SemVer,
  channel?: Channel,
): number | undefined {
  const present = new Set<number>();
  for (const node of graph.nodes) {
    const v = parseVersion(node.version)!;
    if (v.major === from.major && (!channel || releaseInChannel(node, v, channel))) present.add(v.minor);
  }
  for (let minor = from.minor + 1; minor < to.minor; minor++) if (!present.has(minor)) return minor;
  return undefined;
}

function less(a: Cost, b: Cost): boolean {
  return a[0] !== b[0] ? a[0] < b[0] : a[1] < b[1];
}

function same(a: Cost | undefined, b: Cost): boolean {
  return a !== undefined && a[0] === b[0] && a[1] === b[1];
}
