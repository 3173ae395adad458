import semver from 'semver';
import { releaseInChannel, tryParseChannel, type Channel } from '../cluster-version/channel.js';
import { edgeOf, type UpdateGraph } from '../cluster-version/graph.js';
import { planUpdatePath, type UpdatePath } from '../cluster-version/path.js';
import type { KindPolicy } from '../project/propose-config.js';
import { bounded, type Decision } from './decision.js';
import { ageProblem, ignoredBy, ruleText, withinLevel } from './level.js';
import type { ClusterVersionPin } from './pins.js';
import { isSafeName, isSafeVersion, oneLine } from './safe-text.js';

/**
 * The newest release of the update graph that the policy allows and the cluster-version operator
 * would take from the pinned version (`planUpdatePath`: every step an edge, no skipped minor, in
 * the channel). A step over a conditional edge is taken only when the platform's target already
 * accepts every one of its risks (`acceptedRisks`): a risk is named, never accepted on the team's
 * behalf, so such a release is refused with the risk's name, message and URL. With `update:
 * minor` the next minor is proposed with its channel (`stable-4.17` for `stable-4.16`). Pure.
 */
export function clusterVersionDecision(
  pin: ClusterVersionPin,
  graph: UpdateGraph,
  policy: KindPolicy,
  now: Date,
): Decision {
  const parsed = pin.channel === undefined ? undefined : tryParseChannel(pin.channel);
  if (!parsed?.ok)
    return {
      refused: [
        { to: '', reason: `the target's channel ${pin.channel ?? '(none)'} is not an OpenShift channel` },
      ],
    };
  const current = parsed.channel;
  const from = semver.parse(pin.value);
  if (!from) return { refused: [{ to: '', reason: `the target ${pin.value} is not a version` }] };
  const outside: string[] = [];
  const refused: { to: string; reason: string }[] = [];
  const newer = graph.nodes
    .filter((n) => isSafeVersion(n.version) && semver.gt(n.version, from))
    .sort((a, b) => semver.rcompare(a.version, b.version));
  for (const node of newer) {
    const v = semver.parse(node.version)!;
    const channel = targetChannel(node, v, current, policy);
    if (!channel || !withinLevel(policy, pin.value, node.version, { nextMinorOnly: true })) {
      outside.push(node.version);
      continue;
    }
    const rule = ignoredBy(policy.ignore, 'openshift', node.version);
    if (rule) {
      refused.push({ to: node.version, reason: `ignored by propose policy (${ruleText(rule)})` });
      continue;
    }
    const age = ageProblem(policy, undefined, now);
    if (age) {
      refused.push({ to: node.version, reason: `${age} (update graphs carry no release dates)` });
      continue;
    }
    const path = planUpdatePath(graph, {
      from: pin.value,
      to: node.version,
      channel: channel.name,
      acceptedRisks: pin.acceptedRisks,
    });
    if (!path.ok) {
      refused.push({ to: node.version, reason: refusalText(graph, path) });
      continue;
    }
    const notes = [
      ...(channel.name !== current.name ? [`moves the channel ${current.name} → ${channel.name}`] : []),
      ...(path.steps.length > 1
        ? [`${path.steps.length} updates: ${[pin.value, ...path.steps.map((s) => s.to)].join(' → ')}`]
        : []),
      ...path.steps
        .filter((s) => s.conditional?.length)
        .map(
          (s) =>
            `${s.from} → ${s.to} is a conditional update: ${riskText(graph, s.from, s.to)}; taken because the target's acceptedRisks already accept it`,
        ),
      ...(outside.length > 0
        ? [`newer, outside the policy (update: ${policy.update}): ${outside.slice(0, 5).join(', ')}`]
        : []),
    ].map((n) => oneLine(n, 600));
    return bounded({
      pick: {
        to: node.version,
        version: node.version,
        notes,
        ...(channel.name !== current.name ? { channel: channel.name } : {}),
      },
      refused,
    });
  }
  return bounded({ refused });
}

/**
 * The channel a target release is proposed in: the current one when it carries the release; with
 * `update: minor`, the same tier of the next minor (`eus` of an odd minor is `stable`) when that
 * carries it; otherwise none (outside the policy).
 */
function targetChannel(
  node: { readonly channels: readonly string[] },
  v: semver.SemVer,
  current: Channel,
  policy: KindPolicy,
): Channel | undefined {
  if (releaseInChannel(node, v, current)) return current;
  if (policy.update !== 'minor' || v.major !== current.major || v.minor !== current.minor + 1)
    return undefined;
  const tier = current.tier === 'eus' && v.minor % 2 !== 0 ? 'stable' : current.tier;
  const next = tryParseChannel(`${tier}-${v.major}.${v.minor}`);
  return next.ok && releaseInChannel(node, v, next.channel) ? next.channel : undefined;
}

/** Why the graph refuses the step, naming each risk of a conditional edge that is not accepted. */
function refusalText(graph: UpdateGraph, path: Extract<UpdatePath, { ok: false }>): string {
  if (path.reason === 'RiskNotAccepted') {
    const risks = (path.risks ?? []).filter(isSafeName);
    return `reachable only over a conditional update with risk ${risks.join(', ') || '(unnamed)'} (${riskDetails(graph, path.from, path.to, risks)}): not accepted on the team's behalf; add the risk to the ClusterVersionTarget's acceptedRisks to have it proposed [RiskNotAccepted]`;
  }
  return `the update graph refuses it: ${oneLine(path.message)} [${path.reason}]`;
}

/** `risk X: message (url)` for the edge `from → to`, when it is one. */
function riskText(graph: UpdateGraph, from: string, to: string): string {
  const edge = edgeOf(graph, from, to);
  return (edge?.risks ?? [])
    .filter((r) => isSafeName(r.name))
    .map((r) => `risk ${r.name}: ${oneLine(r.message, 200)} (${safeUrl(r.url)})`)
    .join('; ');
}

/** The messages and URLs of `risks` on any conditional edge on the way (the graph's words, one line each). */
function riskDetails(graph: UpdateGraph, from: string, to: string, names: readonly string[]): string {
  const seen = new Map<string, string>();
  for (const e of graph.edges)
    for (const r of e.risks)
      if (names.includes(r.name) && !seen.has(r.name) && semver.gte(e.from, from) && semver.lte(e.to, to))
        seen.set(r.name, `${oneLine(r.message, 200)} ${safeUrl(r.url)}`);
  return [...seen.values()].join('; ') || 'see the update graph';
}

/** An http(s) URL as text, or `(no URL)`: anything else from the graph is not shown. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return ['https:', 'http:'].includes(u.protocol) && !/\s/.test(url) ? u.href : '(no URL)';
  } catch {
    return '(no URL)';
  }
}
