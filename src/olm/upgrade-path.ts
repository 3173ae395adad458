import semver from 'semver';
import { updateCandidates, type InstalledCSV } from './candidates.js';
import type { Catalog, CatalogPackage, Channel } from './catalog/model.js';
import {
  UpgradePathFound,
  UpgradePathUnreachable,
  type Hop,
  type UnreachableReason,
  type UpgradePathRequest,
  type UpgradePathResult,
} from './upgrade-path-result.js';

/**
 * The hops OLM takes from `installed` in `channel` until it has no update left
 * (normally at the head): at each step, the update candidate nearest the head.
 * One hop is one InstallPlan. Stops rather than loop if a CSV would come back.
 *
 * Ignores dependencies: OLM's solver may pass over a candidate whose
 * dependencies cannot be met, which this walk cannot see (`pathDependencies`
 * plans each hop's dependencies apart and names the requirements nothing meets).
 */
function olmWalk(pkg: CatalogPackage, channel: Channel, installed: InstalledCSV): Hop[] {
  const hops: Hop[] = [];
  const seen = new Set([installed.csv]);
  for (let cur = installed; ;) {
    const best = updateCandidates(channel, cur)[0];
    if (!best || seen.has(best.entry.name)) return hops;
    const version = pkg.bundles.get(best.entry.name)?.version ?? '?';
    hops.push({
      csv: best.entry.name,
      version,
      via: best.reasons,
      replaces: cur.csv,
      replacesVersion: cur.version,
      ...(best.reasons.includes('skipRange') ? { skipRange: best.entry.skipRange } : {}),
    });
    seen.add(best.entry.name);
    cur = { csv: best.entry.name, version };
  }
}

/**
 * Computes how OLM moves a Subscription from `from` to `to` in one channel.
 *
 * OLM's rule (operator-lifecycle-manager `pkg/controller/registry/resolver`):
 * an update candidate for the installed CSV X is an entry that replaces X, lists
 * X in `skips`, or whose `skipRange` contains X's version; of the candidates OLM
 * takes the one nearest the channel head; every hop is one InstallPlan. So a
 * target is reachable only if that greedy walk lands on it. `from` undefined is
 * a fresh install at `to` (startingCSV): one hop, any entry of the channel.
 *
 * Pure; never throws. Does not check dependencies (see `pathDependencies`), OpenShift version limits
 * (`olm.maxOpenShiftVersion`) or deprecations.
 *
 * @example
 * const r = upgradePath(catalog, { package: 'foo', channel: 'beta', from: 'foo.v0.1.0', to: 'foo.v0.3.1' });
 * if (r.ok) r.hops.map((h) => h.csv); // ['foo.v0.2.0', 'foo.v0.3.1']
 * else console.log(r.reason, r.message);
 */
export function upgradePath(catalog: Catalog, request: UpgradePathRequest): UpgradePathResult {
  const { package: pkgName, channel: channelName, from, to } = request;
  const fail = (reason: UnreachableReason, message: string, fix?: string, olmPath: readonly Hop[] = []) =>
    new UpgradePathUnreachable(request, reason, message, fix, olmPath);

  const pkg = catalog.packages.get(pkgName);
  if (!pkg) {
    return fail(
      'unknown-package',
      `package ${pkgName} is not in the catalog`,
      `use one of: ${[...catalog.packages.keys()].join(', ')}`,
    );
  }
  const channel = pkg.channels.get(channelName);
  if (!channel) {
    const names = [...pkg.channels.keys()].map((c) => (c === pkg.defaultChannel ? `${c} (default)` : c));
    return fail(
      'unknown-channel',
      `package ${pkgName} has no channel ${channelName}`,
      `use one of: ${names.join(', ')}`,
    );
  }
  if (channel.problems.length > 0) {
    return fail(
      'invalid-channel',
      `OLM cannot resolve in channel ${channelName}: ${channel.problems.join('; ')}`,
      'fix the catalog',
    );
  }
  if (!channel.entries.some((e) => e.name === to)) {
    const elsewhere = [...pkg.channels.values()]
      .filter((c) => c.entries.some((e) => e.name === to))
      .map((c) => c.name);
    const hint = elsewhere.length > 0 ? `; it is in channel ${elsewhere.join(', ')}` : '';
    return fail(
      'target-not-in-channel',
      `${to} is not an entry of channel ${channelName}${hint}`,
      `pin an entry of ${channelName} (its head is ${channel.head})`,
    );
  }
  const toVersion = pkg.bundles.get(to)?.version ?? '?';
  if (from === undefined) {
    return new UpgradePathFound(request, [
      { csv: to, version: toVersion, via: ['startingCSV'], replaces: undefined, replacesVersion: undefined },
    ]);
  }
  if (from === to) return new UpgradePathFound(request, []);

  const fromVersion = pkg.bundles.get(from)?.version ?? request.fromVersion;
  const walk = olmWalk(pkg, channel, { csv: from, version: fromVersion });
  const reached = walk.findIndex((h) => h.csv === to);
  if (reached >= 0) return new UpgradePathFound(request, walk.slice(0, reached + 1));

  // Versions come from the catalog (validated) or the caller; an invalid one must not make semver throw.
  const comparable = semver.valid(toVersion) !== null;
  if (
    comparable &&
    fromVersion !== undefined &&
    semver.valid(fromVersion) &&
    semver.lt(toVersion, fromVersion)
  ) {
    return fail(
      'downgrade',
      `${to} (${toVersion}) is older than the installed ${from} (${fromVersion}); OLM never downgrades`,
      `pin ${from} or a later CSV; going back means deleting the Subscription and CSV and installing ${to} fresh`,
      walk,
    );
  }
  const excluded = channel.excluded.find((e) => e.name === to);
  const landing = walk.find((h) => comparable && semver.valid(h.version) && semver.gte(h.version, toVersion));
  const instead = landing
    ? `pin ${landing.csv}, where OLM lands, or install ${to} fresh (startingCSV)`
    : `install ${to} fresh (startingCSV)`;
  if (excluded) {
    const why =
      excluded.why === 'skipped'
        ? `is skipped by ${excluded.by.join(', ')}`
        : 'is off the replaces chain from the head';
    return fail(
      'target-skipped',
      `${to} ${why} in channel ${channelName}; OLM leaves such entries out of the update order, so it never offers ${to} as an update`,
      instead,
      walk,
    );
  }
  const toIndex = channel.order.indexOf(to);
  const past = walk.find((h) => channel.order.indexOf(h.csv) < toIndex);
  if (past) {
    const prev = past.replaces ?? from;
    return fail(
      'jumped-past',
      `OLM updates ${prev} straight to ${past.csv} (${past.via.join(', ')}), the candidate nearest the head, which is past ${to}`,
      instead,
      walk,
    );
  }
  const last = walk.at(-1);
  const stuck = last ? `${last.csv} (${last.version})` : `${from} (${fromVersion ?? 'version unknown'})`;
  return fail(
    'no-update-edge',
    `no entry of channel ${channelName} replaces, skips or has a skipRange containing ${stuck}: OLM has no update from it`,
    `pin ${last?.csv ?? from}, or use a channel with an update edge from it`,
    walk,
  );
}
