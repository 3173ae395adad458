import semver from 'semver';
import type { KindPolicy } from '../project/propose-config.js';
import { pathDependencies } from '../olm/path-dependencies.js';
import type { NamedCatalog } from '../olm/present-operator.js';
import { upgradePath } from '../olm/upgrade-path.js';
import { bounded, type Decision } from './decision.js';
import { ageProblem, ignoredBy, ruleText, withinLevel } from './level.js';
import type { OperatorPin } from './pins.js';
import { isSafeName, isSafeVersion, oneLine } from './safe-text.js';

/**
 * The newest CSV of the pin's channel that the policy allows and OLM would reach from the pinned
 * CSV, under OLM's rules (`upgradePath`: replaces, skips, skipRange, the greedy walk nearest the
 * head) with every hop's dependencies met by the catalogs (`pathDependencies`). Newer CSVs OLM
 * would not reach, whose dependencies nothing meets, that are ignored or too young are refused,
 * each saying why; CSVs outside the policy's level are named in the pick's notes. The catalog is
 * the first of `catalogs` carrying the package. Pure.
 */
export function operatorDecision(
  pin: OperatorPin,
  catalogs: readonly NamedCatalog[],
  policy: KindPolicy,
  now: Date,
): Decision {
  const named = catalogs.find((c) => c.catalog.packages.has(pin.subject));
  const refuse = (reason: string): Decision => ({ refused: [{ to: '', reason }] });
  if (!named)
    return refuse(
      `no catalog of groundwork.yaml (catalogs: ${catalogs.map((c) => c.name).join(', ') || 'none'}) carries package ${pin.subject}`,
    );
  const pkg = named.catalog.packages.get(pin.subject)!;
  const channel = pkg.channels.get(pin.channel);
  if (!channel) return refuse(`package ${pin.subject} has no channel ${pin.channel} in ${named.name}`);
  const from = pkg.bundles.get(pin.value);
  if (!from) return refuse(`the pinned CSV ${pin.value} is not in ${named.name}`);
  const newer = channel.entries
    .map((e) => pkg.bundles.get(e.name))
    .filter((b) => b !== undefined && isSafeVersion(b.version) && semver.gt(b.version, from.version))
    .sort((a, b) => semver.rcompare(a!.version, b!.version)) as { name: string; version: string }[];
  const outside: string[] = [];
  const refused: { to: string; reason: string }[] = [];
  for (const bundle of newer) {
    if (!isSafeName(bundle.name)) {
      refused.push({ to: '', reason: `a CSV name of ${named.name} is not a name (refused as it is)` });
      continue;
    }
    if (!withinLevel(policy, from.version, bundle.version)) {
      outside.push(bundle.name);
      continue;
    }
    const rule = ignoredBy(policy.ignore, pin.subject, bundle.version);
    if (rule) {
      refused.push({ to: bundle.name, reason: `ignored by propose policy (${ruleText(rule)})` });
      continue;
    }
    const age = ageProblem(policy, undefined, now);
    if (age) {
      refused.push({ to: bundle.name, reason: `${age} (OLM catalogs carry no release dates)` });
      continue;
    }
    const path = upgradePath(named.catalog, {
      package: pin.subject,
      channel: pin.channel,
      from: pin.value,
      to: bundle.name,
    });
    if (!path.ok) {
      refused.push({
        to: bundle.name,
        reason: `OLM would not update to it: ${oneLine(path.message)} [${path.reason}]`,
      });
      continue;
    }
    const deps = pathDependencies({
      package: pin.subject,
      hops: path.hops,
      catalog: named,
      catalogs,
      channel: pin.channel,
      installed: pin.value,
    });
    const blocked = deps.find((h) => h.unmet.length > 0);
    if (blocked) {
      refused.push({
        to: bundle.name,
        reason: `OLM cannot plan ${blocked.csv}: ${oneLine(blocked.unmet[0]!.message)}, and no catalog of groundwork.yaml satisfies it`,
      });
      continue;
    }
    const notes = [
      ...(path.hops.length > 1
        ? [
            `OLM takes ${path.hops.length} InstallPlans: ${[pin.value, ...path.hops.map((h) => h.csv)].join(' → ')}`,
          ]
        : []),
      ...path.hops
        .filter((h) => h.via.includes('skipRange') || h.via.includes('skips'))
        .map(
          (h) =>
            `${h.csv} is reached over ${h.via.join(', ')}${h.skipRange ? ` (skipRange ${oneLine(h.skipRange, 80)})` : ''}: the versions it passes over are never installed`,
        ),
      ...deps.flatMap((h) =>
        h.joins.map(
          (j) => `${h.csv} brings dependency ${j.csv} (package ${j.package}, channel ${j.channel})`,
        ),
      ),
      ...(outside.length > 0
        ? [`newer, outside the policy (update: ${policy.update}): ${outside.slice(0, 5).join(', ')}`]
        : []),
    ].map((n) => oneLine(n));
    return bounded({
      pick: { to: bundle.name, version: bundle.version, from: from.version, notes },
      refused,
    });
  }
  return bounded({ refused });
}
