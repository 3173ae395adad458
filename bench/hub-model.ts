// The pure parts of `bench hub`: who each simulated member is (seeded, so runs compare), the report
// it writes (realistic sizes: OpenShift pools, operator pins, the health roll-up, drift), how its
// state changes, and the statistics the bench prints. No I/O; test/bench/hub-model.test.ts.
import type { ReportBody } from '../src/hub/member-report.js';

/** A small seeded PRNG (mulberry32): the same seed plays the same fleet. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `ms` moved by up to ±`fraction` of itself (the agents' timers are jittered so they spread). */
export function jittered(ms: number, random: () => number, fraction = 0.1): number {
  return Math.round(ms * (1 + fraction * (2 * random() - 1)));
}

/** What part a member plays in the run. */
export type MemberRole = 'healthy' | 'silent' | 'not-ready';

/** A simulated member: fixed for the run. */
export interface MemberProfile {
  readonly name: string;
  readonly environment: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly openshift: boolean;
  /** MachineConfigPools (OpenShift only): master, worker and sometimes infra or gpu. */
  readonly pools: readonly string[];
  /** Pinned operators (OpenShift only). */
  readonly pins: number;
  /** `silent`: stops heartbeating and reporting once the steady window starts; `not-ready`: reports Ready=False. */
  readonly role: MemberRole;
}

const ENVIRONMENTS = ['canary', 'staging', 'prod', 'prod', 'prod'] as const;
const REGIONS = ['eu', 'us', 'ap'] as const;
const OPERATORS = [
  'openshift-gitops-operator',
  'cert-manager',
  'logging',
  'quay-bridge',
  'compliance-operator',
  'file-integrity-operator',
  'amq-streams',
  'servicemeshoperator',
] as const;

/**
 * Member `index` of a fleet: names `m-00042`, an environment (1 in 5 canary or staging), a region
 * label, OpenShift for 4 in 5 (2 to 4 pools, 2 to 8 operator pins), and its role: `silentEvery`-th
 * members go silent, `notReadyEvery`-th (offset) report Ready=False. With the bench's 50 and 20,
 * the silent ones fall in `prod` and the not-ready ones in `canary`. Pure and deterministic.
 */
export function memberProfile(
  index: number,
  opts: { readonly silentEvery: number; readonly notReadyEvery: number },
): MemberProfile {
  const random = rng(index + 1);
  const openshift = index % 5 !== 4;
  const extraPools = Math.floor(random() * 3); // 0-2 of infra, gpu
  const role: MemberRole =
    opts.silentEvery > 0 && index % opts.silentEvery === opts.silentEvery - 1
      ? 'silent'
      : opts.notReadyEvery > 0 && index % opts.notReadyEvery === Math.floor(opts.notReadyEvery / 2)
        ? 'not-ready'
        : 'healthy';
  return {
    name: `m-${String(index).padStart(5, '0')}`,
    environment: ENVIRONMENTS[index % ENVIRONMENTS.length]!,
    labels: {
      region: REGIONS[index % REGIONS.length]!,
      site: `site-${index % 97}`,
      // The rollout's canary wave: a few healthy prod members (index 2, 102, ...).
      ...(index % 100 === 2 ? { ring: 'canary' } : {}),
    },
    openshift,
    pools: openshift ? ['master', 'worker', 'infra', 'gpu'].slice(0, 2 + extraPools) : [],
    pins: openshift ? 2 + Math.floor(random() * 7) : 0,
    role,
  };
}

/** What changes in a member between reports. */
export interface MemberState {
  /** Commit counter of the environment's ref: the revision applied is derived from it. */
  readonly commit: number;
  readonly drift: number;
  /** Machines of the worker pool still to update (a MachineConfig rollout in progress). */
  readonly updating: number;
  readonly ready: boolean;
  /** Seconds since the epoch of the last Ready change. */
  readonly since: number;
  /** The revision the hub released and the member applied (`<ref>@sha1:<hex>`), once there is one. */
  readonly revision?: string;
}

export const INITIAL_STATE: MemberState = {
  commit: 1,
  drift: 0,
  updating: 0,
  ready: true,
  since: 1_790_000_000,
};

const hex40 = (n: number) => (n.toString(16).padStart(8, '0') + 'a1b2c3d4').repeat(3).slice(0, 40);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * The report body member `p` writes in state `s`: what `memberReport` makes of an agent's status
 * (sizes as a real one: 0.6 to 2 KB of JSON). Ready is False for `not-ready` members (a failed
 * health check) and while drift or a pool update is pending. Pure.
 */
export function reportBody(p: MemberProfile, s: MemberState): ReportBody {
  const revision = s.revision ?? `${p.environment}@sha1:${hex40(s.commit)}`;
  const failing = p.role === 'not-ready';
  const ready = s.ready && !failing;
  const reason = failing
    ? 'HealthCheckFailed'
    : !ready
      ? s.updating > 0
        ? 'WaitingForHealth'
        : 'DriftDetected'
      : 'ReconciliationSucceeded';
  return {
    agentVersion: '0.9.0',
    platform: p.openshift ? 'openshift' : 'kubernetes',
    overlay: p.environment,
    source: { url: 'https://git.example.com/platform/fleet.git', ref: p.environment, path: 'platform' },
    revision: { applied: revision, attempted: revision },
    lastAppliedTime: iso(s.since),
    ready: {
      status: ready ? 'True' : 'False',
      reason,
      ...(ready
        ? {}
        : {
            message: failing
              ? 'Deployment/payments/api: 0/3 replicas available (ProgressDeadlineExceeded)'
              : `${s.drift} objects differ from git`,
          }),
      since: iso(s.since),
    },
    health: failing
      ? { status: 'Degraded', reason: 'HealthCheckFailed', message: 'Deployment/payments/api is Degraded' }
      : { status: 'Healthy', reason: 'AllHealthy' },
    ...(s.drift > 0
      ? {
          drift: {
            count: s.drift,
            items: Array.from({ length: Math.min(s.drift, 5) }, (_, i) => ({
              object: `ConfigMap/platform-config/settings-${i}`,
              type: 'modified' as const,
            })),
          },
        }
      : { drift: { count: 0 } }),
    ...(p.openshift
      ? {
          openshift: {
            version: { current: '4.14.38', action: 'done', progressing: false },
            pools: p.pools.map((name) => {
              const machines = name === 'master' ? 3 : name === 'worker' ? 6 : 2;
              const left = name === 'worker' ? Math.min(s.updating, machines) : 0;
              return {
                name,
                machines,
                updated: machines - left,
                ready: machines - Math.min(left, 1),
                degraded: 0,
                updating: left > 0,
                paused: false,
              };
            }),
            operatorPins: Array.from({ length: p.pins }, (_, i) => {
              const op = OPERATORS[i % OPERATORS.length]!;
              return {
                subscription: `openshift-operators/${op}`,
                pin: `${op}.v1.${10 + i}.2`,
                installed: `${op}.v1.${10 + i}.2`,
                state: 'installed' as const,
              };
            }),
          },
        }
      : {}),
  };
}

/**
 * The next state after one event, at `nowSeconds`: drift is healed, a pool update moves on a
 * machine, or at random drift appears (half), a worker-pool update starts or a new commit is applied. Ready
 * follows (False while drift or an update is pending). Pure given `random`.
 */
export function nextState(s: MemberState, random: () => number, nowSeconds: number): MemberState {
  const r = random();
  let next: MemberState;
  if (s.updating > 0) next = { ...s, updating: s.updating - 1 };
  else if (s.drift > 0) next = { ...s, drift: 0 };
  else if (r < 0.5) next = { ...s, drift: 1 + Math.floor(random() * 3) };
  else if (r < 0.7) next = { ...s, updating: 2 };
  else next = { ...s, commit: s.commit + 1 };
  const ready = next.drift === 0 && next.updating === 0;
  return { ...next, ready, since: ready === s.ready ? s.since : nowSeconds };
}

/**
 * How long until member state `s` changes next: drift is healed 5 s (±50 %) after it appeared (a
 * self-healing agent), a pool update moves on a machine every 20 s (±50 %); otherwise the next
 * event comes after an exponential wait of mean `meanMs`. Pure given `random`.
 */
export function nextChangeMs(s: MemberState, random: () => number, meanMs: number): number {
  if (s.drift > 0) return jittered(5000, random, 0.5);
  if (s.updating > 0) return jittered(20_000, random, 0.5);
  return -Math.log(1 - random()) * meanMs;
}

/**
 * The state once the member applied `revision` (a release of the hub): drift healed, no update
 * in flight, Ready since `nowSeconds` (a `not-ready` member still reports its failed health). Pure.
 */
export function appliedState(s: MemberState, revision: string, nowSeconds: number): MemberState {
  return { ...s, revision, drift: 0, updating: 0, ready: true, since: s.ready ? s.since : nowSeconds };
}

/** Nearest-rank percentile (`p` in 0..100) of `values`; NaN for none. Does not modify `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Cores used between two CPU readings (ms of CPU time) over `wallMs` of wall time. */
export function cores(cpuBeforeMs: number, cpuAfterMs: number, wallMs: number): number {
  return wallMs > 0 ? (cpuAfterMs - cpuBeforeMs) / wallMs : 0;
}
