// The pure parts of `bench hub`'s real agents (issue 34): who each real member is (its name and
// labels: the first in the rollout's canary wave, the others in later waves) and the report section
// of their rollout figures. No I/O; test/bench/hub-real-plan.test.ts.
import { percentile } from './hub-model.js';

/** A real agent's member: fixed for the run. */
export interface RealMemberProfile {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * `count` real members: `real-00`, `real-01`, ... The first carries `ring=canary`, the label the
 * bench's canary wave selects (with the simulated canaries), so one real agent is released first; the
 * others carry none, so the percentage waves take them later (by the hash of their names, as every
 * member). All have a region and a site as the simulated members do. Pure.
 */
export function realMemberProfiles(count: number): RealMemberProfile[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `real-${String(i).padStart(2, '0')}`,
    labels: { region: 'eu', site: `real-site-${i}`, ...(i === 0 ? { ring: 'canary' } : {}) },
  }));
}

/** What the bench saw of one real member in the rollout. */
export interface RealAgentRow {
  readonly name: string;
  /** The wave the rollout put it in (its name), undefined when the rollout did not take it. */
  readonly wave: string | undefined;
  /** When the bench's watch saw its `spec.release` of the rollout's commit (ms, the bench's clock). */
  readonly releasedAt: number | undefined;
  /** When the watch first saw its report name that commit as applied. */
  readonly appliedAt: number | undefined;
  /** Its report's `lastAppliedTime` (whole seconds): when the agent applied it on its cluster. */
  readonly appliedInCluster?: number | undefined;
  /** Its report's Ready at the end (`True (ReconciliationSucceeded)`), or why there is none. */
  readonly ready: string;
}

/** Seconds with one decimal, or `n/a`. */
const seconds = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);

/**
 * The report's "real agents" section: one row per real member (cluster, wave, released → applied
 * as the hub shows it and as its cluster's `lastAppliedTime` says, Ready), and a line with their
 * reports' visible latency (`visibleMs`: the watch's time minus the report's `reportedAt`, which
 * has whole seconds, so each may read up to 1 s long) and the CPU their clusters and agents used in
 * the steady window (`cpu`, cores; not counted in the hub's). Pure.
 */
export function realAgentsSection(
  rows: readonly RealAgentRow[],
  facts: {
    readonly objects: number;
    readonly visibleMs: readonly number[];
    readonly cpu?: { readonly controlPlanes: number; readonly agents: number };
  },
): string {
  const since = (r: RealAgentRow, at: number | undefined) =>
    r.releasedAt !== undefined && at !== undefined ? at - r.releasedAt : undefined;
  const visible = facts.visibleMs;
  return [
    `#### real agents (${rows.length} \`groundwork agent --hub\` processes from the build, each on a control plane of its own, following one platform of ${facts.objects} objects over git smart-HTTP; \`--hub-releases required\`)`,
    '',
    '| cluster | wave | released → applied (as the hub shows it) | released → applied on its cluster (`lastAppliedTime`, whole s) | Ready |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.wave ?? 'none'} | ${seconds(since(r, r.appliedAt))} | ${seconds(since(r, r.appliedInCluster))} | ${r.ready} |`,
    ),
    '',
    `- their report-to-visible (watch event − the report's \`reportedAt\`, whole seconds, so up to 1 s long), ${visible.length} reports: ${visible.length ? `p50 ${percentile(visible, 50)} ms, max ${percentile(visible, 100)} ms` : 'none seen'}`,
    ...(facts.cpu
      ? [
          `- not in the hub figures: their ${rows.length} control planes used ${facts.cpu.controlPlanes.toFixed(2)} cores and their agents ${facts.cpu.agents.toFixed(2)} cores over the steady window`,
        ]
      : []),
  ].join('\n');
}
