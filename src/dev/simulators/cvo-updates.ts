import {
  compareReleases,
  type CincinnatiRisk,
  type ServedRelease,
  type UpdateService,
} from './cincinnati.js';

/** A release as ClusterVersion status lists it (`status.desired`, `availableUpdates[]`). */
export interface StatusRelease {
  channels?: string[];
  image: string;
  url?: string;
  version: string;
}

export interface StatusCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime: string;
}

export interface ConditionalUpdate {
  conditions: StatusCondition[];
  release: StatusRelease;
  risks: { matchingRules: unknown[]; message: string; name: string; url: string }[];
}

/** What the CVO learned from the update service for one channel and version. */
interface RetrievedUpdates {
  /** `null` when there is none, as the CVO writes it. */
  readonly availableUpdates: StatusRelease[] | null;
  readonly conditionalUpdates: ConditionalUpdate[];
  /** The `RetrievedUpdates` condition (without its time). */
  readonly retrieved: { status: 'True' | 'False'; reason?: string; message?: string };
  /** The current release's metadata from the graph, when it is in the channel. */
  readonly current: StatusRelease | undefined;
}

/** Decides whether a conditional-update risk applies to this cluster (the CVO evaluates PromQL). */
export type RiskEvaluator = (risk: CincinnatiRisk, target: string) => boolean;

/** A served release in ClusterVersion status shape (channels sorted, `url` from metadata). */
export function statusRelease(node: ServedRelease): StatusRelease {
  return {
    channels: [...node.channels],
    image: node.payload,
    ...(node.url ? { url: node.url } : {}),
    version: node.version,
  };
}

/**
 * The updates the CVO would list for `version` in `channel` from the update service's graph
 * (cluster-version-operator `pkg/cincinnati` and `pkg/cvo/availableupdates.go`): edges from the
 * version to releases in the channel (a node without channel metadata is in every channel).
 * Unconditional edges go to `availableUpdates`; conditional ones to `conditionalUpdates` with a
 * `Recommended` condition, and also to `availableUpdates` when no risk applies, as 4.14 clusters
 * show. Both lists are sorted newest first. `previous` keeps condition times that did not change.
 *
 * Failures use the CVO's reasons: `NoChannel`, `VersionNotFound`.
 */
export function retrieveUpdates(
  service: UpdateService,
  channel: string | undefined,
  version: string,
  opts: { riskApplies: RiskEvaluator; previous: readonly ConditionalUpdate[]; now: string },
): RetrievedUpdates {
  const inChannel = (n: ServedRelease | undefined): n is ServedRelease =>
    !!n && !!channel && (n.channels.length === 0 || n.channels.includes(channel));
  const currentNode = service.release(version);
  const current = inChannel(currentNode) ? statusRelease(currentNode) : undefined;
  if (!channel) {
    return {
      availableUpdates: null,
      conditionalUpdates: [],
      retrieved: {
        status: 'False',
        reason: 'NoChannel',
        message: 'The update channel has not been configured.',
      },
      current,
    };
  }
  if (!current) {
    return {
      availableUpdates: null,
      conditionalUpdates: [],
      retrieved: {
        status: 'False',
        reason: 'VersionNotFound',
        message: `currently reconciling cluster version ${version} not found in the "${channel}" channel`,
      },
      current,
    };
  }
  const available: StatusRelease[] = [];
  const conditional: ConditionalUpdate[] = [];
  for (const { to: node, risks } of service.updatesFrom(version)) {
    const edge = { to: node.version, risks };
    if (!inChannel(node)) continue;
    const release = statusRelease(node);
    if (edge.risks.length === 0) {
      available.push(release);
      continue;
    }
    const applying = edge.risks.filter((r) => opts.riskApplies(r, edge.to));
    const recommended =
      applying.length === 0
        ? {
            type: 'Recommended',
            status: 'True',
            reason: 'AsExpected',
            message:
              'The update is recommended, because none of the conditional update risks apply to this cluster.',
          }
        : {
            type: 'Recommended',
            status: 'False',
            reason: applying.length === 1 ? (applying[0] as CincinnatiRisk).name : 'MultipleReasons',
            message: applying.map((r) => `${r.message} ${r.url}`).join('\n\n'),
          };
    const before = opts.previous
      .find((u) => u.release.version === edge.to)
      ?.conditions.find((c) => c.type === 'Recommended');
    const same =
      before &&
      before.status === recommended.status &&
      before.reason === recommended.reason &&
      before.message === recommended.message;
    conditional.push({
      conditions: [{ ...recommended, lastTransitionTime: same ? before.lastTransitionTime : opts.now }],
      release,
      risks: edge.risks.map((r) => ({
        matchingRules: [...r.matchingRules],
        message: r.message,
        name: r.name,
        url: r.url,
      })),
    });
    if (applying.length === 0) available.push(release);
  }
  const newestFirst = (a: { version: string }, b: { version: string }) =>
    compareReleases(b.version, a.version);
  available.sort(newestFirst);
  conditional.sort((a, b) => newestFirst(a.release, b.release));
  return {
    availableUpdates: available.length > 0 ? available : null,
    conditionalUpdates: conditional,
    retrieved: { status: 'True' },
    current,
  };
}
