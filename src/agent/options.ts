import type { Logger } from 'pino';
import type { GitAuth } from '../source/credentials.js';
import type { SourceRef } from '../source/fetch-revision.js';
import type { AgentMode } from './agent-state.js';
import type { HubReleasePolicy } from './release-gate.js';
import type { CommitStatusOptions } from './notifications.js';
import { AGENT_FLAGS } from './agent-flags.js';

// The agent's options: the flags of `AGENT_FLAGS` typed, the options `startAgent` takes, and the
// way back from values to a command line (`agentArgs`, for the agent's Deployment).

type Flags = typeof AGENT_FLAGS;
/** The name of one agent flag's value (`maxPruneShare`). */
export type AgentFlagName = keyof Flags;

/** A flag's value as commander hands it over: text, or a switch's boolean. */
type TextOf<K extends AgentFlagName> = Flags[K]['kind'] extends 'switch' ? boolean : string;

/** The agent's flags as typed (commander's values): what `agentArgs` writes back out. */
export type AgentFlagText = { -readonly [K in AgentFlagName]?: TextOf<K> };

/** What each kind of flag reads into (`options-schema.ts`). */
interface KindValue {
  text: string;
  duration: number;
  fraction: number;
  port: number;
  switch: boolean;
  mode: AgentMode;
  releases: HubReleasePolicy;
}

/** Flags that always have a value once read: required, defaulted, or a `--no-x` switch. */
type Always = {
  [K in AgentFlagName]: Flags[K] extends { required: true } | { default: string }
    ? K
    : Flags[K]['flag'] extends `--no-${string}`
      ? K
      : never;
}[AgentFlagName];

/** The agent's flags, read (`readAgentFlags`): durations in milliseconds, numbers, booleans. */
export type AgentFlagValues = { -readonly [K in Always]: KindValue[Flags[K]['kind']] } & {
  -readonly [K in Exclude<AgentFlagName, Always>]?: KindValue[Flags[K]['kind']];
};

/** The flags `groundwork bootstrap` takes too and passes on to the agent's Deployment. */
export type BootstrapFlagName = {
  [K in AgentFlagName]: Flags[K] extends { bootstrap: object } ? K : never;
}[AgentFlagName];

/** The names of the flags bootstrap passes on, in `AGENT_FLAGS` order. */
export const BOOTSTRAP_FLAGS = (Object.keys(AGENT_FLAGS) as AgentFlagName[]).filter(
  (k) => 'bootstrap' in AGENT_FLAGS[k],
) as BootstrapFlagName[];

/** Bootstrap's flags that reach the Deployment folded: the repository and the commit statuses. */
const FOLDED_BY_BOOTSTRAP = [
  'repo',
  'branch',
  'tag',
  'commit',
  'path',
  'commitStatusSecret',
  'commitStatusForge',
  'commitStatusApi',
  'dashboardUrl',
] as const satisfies readonly BootstrapFlagName[];

/** The flags bootstrap passes on as they are (`--mode`, `--dashboard`, `--verify-commits`, ...). */
export type PassedOnFlag = Exclude<BootstrapFlagName, (typeof FOLDED_BY_BOOTSTRAP)[number]>;

/** The values of the flags bootstrap passes on as they are, as typed. */
export type PassedOnText = Pick<AgentFlagText, PassedOnFlag>;

const PASSED_ON = BOOTSTRAP_FLAGS.filter(
  (k): k is PassedOnFlag => !(FOLDED_BY_BOOTSTRAP as readonly string[]).includes(k),
);

/** Of `values`, the flags bootstrap passes on as they are (`PassedOnFlag`) that have a value. */
export function passedOn(values: PassedOnText): PassedOnText {
  return Object.fromEntries(
    PASSED_ON.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]),
  ) as PassedOnText;
}

/**
 * Flags that reach `AgentOptions` under another name or folded into one field (`agentOptionsOf`):
 * every other flag is an option of the same name and type.
 */
export type FoldedFlag =
  | 'repo'
  | 'branch'
  | 'tag'
  | 'commit'
  | 'path'
  | 'interval'
  | 'resyncInterval'
  | 'leaderElect'
  | 'leaseDuration'
  | 'httpPort'
  | 'httpBind'
  | 'commitStatusSecret'
  | 'commitStatusForge'
  | 'commitStatusApi'
  | 'dashboardUrl'
  | 'synthTimeout'
  | 'npmTimeout';

/**
 * Everything the agent runs with: the `groundwork agent` flags, read (`agentOptionsOf`), or set by
 * a caller (tests, the quick start). A flag's option has the flag's name and its default
 * (`AGENT_DEFAULTS`); the folded ones are below.
 */
export type AgentOptions = Partial<Omit<AgentFlagValues, FoldedFlag | 'overlay'>> & {
  overlay: string;
  /** `--repo`, `--branch`/`--tag`/`--commit`, `--path`. */
  repository: { url: string; ref: SourceRef; path?: string };
  /** Platform name (groundwork.yaml) for the status object name; read from the first checkout when absent. */
  platform?: string;
  /** `--interval`. @default 60_000 */
  intervalMs?: number;
  /** `--resync-interval`. @default 600_000 */
  resyncMs?: number;
  /** Re-plan in full at least this often (tests set 0: every cycle plans). @default resyncMs */
  fullPlanEveryMs?: number;
  /** @default 0.1 */
  jitter?: number;
  /** Git credentials given directly (else `credentialsSecret`, else GROUNDWORK_GIT_* env). */
  auth?: GitAuth;
  /** GROUNDWORK_WEBHOOK_SECRET: `/webhook` checks deliveries with it; none without. */
  webhookSecret?: string;
  /** `--http-port` (0: none) and `--http-bind`; no HTTP server without. */
  http?: { host?: string; port: number };
  /** `--leader-elect` with `--lease-duration`: several replicas, one acts. */
  leaderElection?: {
    leaseDurationMs?: number;
    renewDeadlineMs?: number;
    retryPeriodMs?: number;
    identity?: string;
  };
  /** `--synth-timeout`. @default 120_000 */
  synthTimeoutMs?: number;
  /** `--npm-timeout`: stop the dependency install after this long (`DependencyInstallFailed`). @default 300_000 */
  npmTimeoutMs?: number;
  /** The synth child's heap cap. @default from the container's memory limit (`heapCapFor`) */
  synthMemoryMb?: number;
  cacheDir?: string;
  debounceMs?: number;
  /** @default a pino logger at `logLevel` */
  log?: Logger;
  /** `--commit-status-*`, `--dashboard-url`: commit statuses on the forge (docs/notifications.md). */
  commitStatus?: CommitStatusOptions;
  /** With `hub`: connection retries (tests shorten them). @default 5 s doubling to 5 min */
  hubRetry?: { firstMs: number; maxMs: number };
  /** With `hub`: report pacing (`ReportPacing`). @default 2 s debounce, 10 s interval */
  hubPacing?: { debounceMs: number; minIntervalMs: number };
};

/**
 * The agent's command line for `options` (the Deployment's container arguments, after `agent`):
 * each flag with a value, in `AGENT_FLAGS` order; a switch by its name when on (a `--no-x` switch
 * when off). Pure; it does not check the values (they were read by the same schema).
 */
export function agentArgs(values: AgentFlagText): string[] {
  const args: string[] = [];
  for (const name of Object.keys(AGENT_FLAGS) as AgentFlagName[]) {
    const value = values[name];
    if (value === undefined) continue;
    const long = AGENT_FLAGS[name].flag.split(' ')[0]!;
    if (typeof value === 'string') args.push(long, value);
    else if (value !== long.startsWith('--no-')) args.push(long);
  }
  return args;
}

/**
 * The flags for a repository and ref: `--commit` (alone: the agent finds it), else `--tag`, else
 * `--branch` (`main` when none).
 */
export function repositoryFlags(repository: {
  url: string;
  ref: { branch?: string; tag?: string; commit?: string };
  path?: string;
}): AgentFlagText {
  const { ref } = repository;
  return {
    repo: repository.url,
    ...(ref.commit ? { commit: ref.commit } : ref.tag ? { tag: ref.tag } : { branch: ref.branch ?? 'main' }),
    ...(repository.path ? { path: repository.path } : {}),
  };
}

/** The flags of commit status options (none without). */
export function commitStatusFlags(commitStatus: CommitStatusOptions | undefined): AgentFlagText {
  if (!commitStatus) return {};
  return {
    commitStatusSecret: commitStatus.secret,
    ...(commitStatus.forge ? { commitStatusForge: commitStatus.forge } : {}),
    ...(commitStatus.apiUrl ? { commitStatusApi: commitStatus.apiUrl } : {}),
    ...(commitStatus.dashboardUrl ? { dashboardUrl: commitStatus.dashboardUrl } : {}),
  };
}
