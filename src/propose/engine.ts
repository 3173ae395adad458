import type { UpdateGraph } from '../cluster-version/graph.js';
import { errorMessage } from '../core/errors.js';
import type { NamedCatalog } from '../olm/present-operator.js';
import {
  kindPolicy,
  type KindPolicy,
  type ProposeConfig,
  type ProposeKindKey,
} from '../project/propose-config.js';
import type { ChartLockEntry } from '../render/helm/chart-lock.js';
import { editChartLock } from './chart-lock-edit.js';
import type { ChartRenderKey } from './chart-render-check.js';
import { chartCandidates } from './chart-candidate.js';
import type { ChartVersion } from './chart-versions.js';
import { clusterVersionDecision } from './cluster-version-candidate.js';
import type { Decision, Pick } from './decision.js';
import { updateGroup } from './group.js';
import { KEYS, locatePin, type PinLocations } from './locate-pin.js';
import { operatorDecision } from './operator-candidate.js';
import type { ChartPin, Pin } from './pins.js';
import type { PlatformFiles } from './platform-files.js';
import type { Proposal, ProposalEdit, ProposalSet, Refusal } from './proposal.js';
import { isSafeEditPath, isSafeName, isSafeVersion, oneLine } from './safe-text.js';
import { applySplices } from './splice.js';

/**
 * Where candidates come from. Each is called at most once per run (catalogs, graph) or once per
 * chart; a throw means the source cannot be read, and every pin that needs it is refused with the
 * reason: no proposal is made from a source that was not read.
 */
export interface ProposeSources {
  /** The file-based catalogs groundwork.yaml lists. */
  catalogs(): Promise<readonly NamedCatalog[]>;
  /** The update graphs groundwork.yaml lists, merged. */
  graph(): Promise<UpdateGraph>;
  chartVersions(key: { repo: string; name: string }): Promise<readonly ChartVersion[]>;
  /** `chart update`'s resolution: the archive fetched, its digest taken. */
  resolveChart(key: { repo: string; name: string; version: string }): Promise<ChartLockEntry>;
  /**
   * Renders the resolved chart version with the proposal's edits applied, twice (`chartRenderCheck`):
   * `undefined` when it renders the same objects both times, else why not (one line). A version it
   * refuses is not proposed; the next allowed one is tried. @default no render check
   */
  chartRenders?(key: ChartRenderKey): Promise<string | undefined>;
}

export interface ProposeInput {
  /** The first environment of the promotion chain: the one proposals target. */
  readonly environment: string;
  readonly pins: readonly Pin[];
  readonly config: ProposeConfig;
  readonly files: PlatformFiles;
  readonly sources: ProposeSources;
  readonly now: Date;
}

const KIND_KEY: Record<Pin['kind'], ProposeKindKey> = {
  operator: 'operators',
  'cluster-version': 'clusterVersion',
  chart: 'charts',
};

/** How many versions of one chart are tried (newest first) before the chart is given up. */
const CHART_ATTEMPTS = 3;

/**
 * For each pin of the environment, the proposal the policy allows (a valid step, edited in place)
 * or the refusals saying why not. Pins whose kind is `update: none` or whose subject is ignored
 * are passed over. Each proposal's edits start from the files as they are (one proposal per update
 * group, applied on its own branch). Never throws for a source that cannot be read: its pins are
 * refused. Touches nothing but `sources`.
 */
export async function proposeUpdates(input: ProposeInput): Promise<ProposalSet> {
  const proposals: Proposal[] = [];
  const refused: Refusal[] = [];
  const catalogs = once(() => input.sources.catalogs());
  const graph = once(() => input.sources.graph());
  const shared = sharedValues(input.pins);
  for (const pin of input.pins) {
    const policy = kindPolicy(input.config, KIND_KEY[pin.kind], input.environment);
    if (
      policy.update === 'none' ||
      policy.ignore.some((r) => r.subject === pin.subject && r.range === undefined)
    )
      continue;
    const subject = `${pin.kind === 'cluster-version' ? '' : `${pin.kind} `}${safeSubject(pin.subject)}`;
    const refuse = (to: string, reason: string) =>
      refused.push({ subject, kind: pin.kind, to: isSafeName(to) ? to : '', reason: oneLine(reason, 800) });
    const valueOk = pin.kind === 'operator' ? isSafeName(pin.value) : isSafeVersion(pin.value);
    if (!isSafeName(pin.subject) || !valueOk) {
      refuse('', `the pinned value is not a ${pin.kind === 'operator' ? 'CSV name' : 'SemVer version'}`);
      continue;
    }
    if (shared.has(pin.value)) {
      refuse(
        '',
        `several pins are written as ${pin.value}: an edit could not tell them apart; update it by hand`,
      );
      continue;
    }
    let decision: Decision;
    try {
      decision =
        pin.kind === 'operator'
          ? operatorDecision(pin, await catalogs(), policy, input.now)
          : pin.kind === 'cluster-version'
            ? clusterVersionDecision(pin, await graph(), policy, input.now)
            : await chartDecision(pin, input, policy);
    } catch (err) {
      refuse('', `${sourceName(pin)} cannot be read: ${errorMessage(err)}`);
      continue;
    }
    for (const r of decision.refused) refuse(r.to, r.reason);
    if (!decision.pick) continue;
    const built = proposalOf(pin, decision.pick, input);
    if (typeof built === 'string') refuse(decision.pick.to, built);
    else proposals.push(built);
  }
  return { proposals, refused };
}

/**
 * The chart's allowed versions resolved newest first (`chart update`'s way), and rendered when the
 * sources can (`chartRenders`), until one resolves and renders.
 */
async function chartDecision(pin: ChartPin, input: ProposeInput, policy: KindPolicy): Promise<Decision> {
  const versions = await input.sources.chartVersions({ repo: pin.repo, name: pin.subject });
  const found = chartCandidates(pin, versions, policy, input.now);
  const refused = [...found.refused];
  for (const version of found.allowed.slice(0, CHART_ATTEMPTS)) {
    try {
      const entry = await input.sources.resolveChart({ repo: pin.repo, name: pin.subject, version });
      if (!/^sha256:[0-9a-f]{64}$/.test(entry.digest) || !safeUrl(entry.url))
        throw new Error('the resolved lock entry has no sha256 digest or no http(s)/oci URL');
      const notes = found.outside.length
        ? [`newer, outside the policy (update: ${policy.update}): ${found.outside.slice(0, 5).join(', ')}`]
        : [];
      const pick: Pick = { to: version, version, notes, lockEntry: entry };
      const built = input.sources.chartRenders ? proposalOf(pin, pick, input) : undefined;
      // A proposal that cannot be built is refused by the caller, with its own reason.
      const problem =
        built && typeof built !== 'string'
          ? await input.sources.chartRenders!({
              repo: pin.repo,
              name: pin.subject,
              version,
              edits: built.edits,
            })
          : undefined;
      if (problem) {
        refused.push({ to: version, reason: problem });
        continue;
      }
      return { pick, refused };
    } catch (err) {
      refused.push({ to: version, reason: `does not resolve: ${errorMessage(err)}` });
    }
  }
  return { refused };
}

/** The proposal for `pick`, or why it cannot be made (the pin is not written where it can be edited). */
function proposalOf(pin: Pin, pick: Pick, input: ProposeInput): Proposal | string {
  const locations: PinLocations = locatePin(
    input.files,
    pin.value,
    pick.to,
    pin.kind === 'operator' ? KEYS.any : KEYS.version,
  );
  if (locations.size === 0)
    return `${pin.value} is written in no overlay of ${input.environment} and no platform source as a whole string: update it by hand`;
  if (pin.kind === 'cluster-version' && pick.channel && pin.channel) {
    const channels = locatePin(input.files, pin.channel, pick.channel, KEYS.channel);
    if (channels.size === 0)
      return `the channel ${pin.channel} is written nowhere it can be edited: update it by hand`;
    for (const [path, splices] of channels) locations.set(path, [...(locations.get(path) ?? []), ...splices]);
  }
  const texts = new Map([...input.files.overlays, ...input.files.sources]);
  const edits: ProposalEdit[] = [];
  for (const [path, splices] of locations) {
    const before = texts.get(path)!;
    edits.push({ path, before, after: applySplices(before, splices) });
  }
  if (pin.kind === 'chart') {
    const lock = input.files.chartLock;
    const entry = pick.lockEntry;
    const after =
      lock && entry
        ? editChartLock(lock.text, { repo: pin.repo, name: pin.subject, from: pin.value }, entry)
        : undefined;
    if (!lock || !after)
      return `${pin.subject} ${pin.value} is not in groundwork-charts.lock.yaml: run groundwork chart lock first`;
    edits.push({ path: lock.path, before: lock.text, after });
  }
  if (edits.some((e) => !isSafeEditPath(e.path))) return 'an edit path is not a repository path';
  edits.sort((a, b) => a.path.localeCompare(b.path));
  const from = pick.from ?? pin.value;
  const channel = pin.kind === 'chart' ? undefined : (pick.channel ?? pin.channel);
  const sourceEdits = edits.filter((e) => input.files.sources.has(e.path)).map((e) => e.path);
  return {
    group: updateGroup(pin.kind, pin.subject),
    kind: pin.kind,
    title: `${titleSubject(pin)} ${from} → ${pick.version}${channel && isSafeName(channel) ? ` (${channel})` : ''}`,
    from,
    to: pick.version,
    edits,
    notes: [
      ...pick.notes,
      ...(sourceEdits.length
        ? [
            `${sourceEdits.join(', ')} is platform code: every environment that runs this revision gets the new version`,
          ]
        : []),
    ],
    environment: input.environment,
  };
}

function titleSubject(pin: Pin): string {
  return pin.kind === 'cluster-version'
    ? 'OpenShift'
    : pin.kind === 'chart'
      ? `chart ${pin.subject}`
      : pin.subject;
}

function sourceName(pin: Pin): string {
  if (pin.kind === 'operator') return 'the catalogs of groundwork.yaml';
  if (pin.kind === 'cluster-version') return 'the update graphs of groundwork.yaml';
  return `the chart repository ${safeUrl(pin.repo) ? pin.repo : '(not a URL)'}`;
}

/** A subject as a refusal may show it: the name, or a placeholder when it is not one. */
function safeSubject(subject: string): string {
  return isSafeName(subject) ? subject : '(not a name)';
}

/** Values that more than one pin (of any kind) is written as. */
function sharedValues(pins: readonly Pin[]): Set<string> {
  const seen = new Map<string, Set<string>>();
  for (const p of pins) seen.set(p.value, (seen.get(p.value) ?? new Set()).add(`${p.kind}\n${p.subject}`));
  return new Set([...seen].filter(([, who]) => who.size > 1).map(([v]) => v));
}

function safeUrl(url: string): boolean {
  try {
    return ['https:', 'http:', 'oci:'].includes(new URL(url).protocol) && !/\s/.test(url);
  } catch {
    return false;
  }
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}
