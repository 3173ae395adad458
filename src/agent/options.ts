import type { Logger } from 'pino';
import type { GitAuth } from '../source/credentials.js';
import type { SourceRef } from '../source/fetch-revision.js';
import type { AgentMode } from './agent-state.js';
import type { CommitStatusOptions } from './notifications.js';

// The agent's options, declared once. This module is plain data and types (no package is loaded
// with it, so `groundwork --help` stays light): `options-schema.ts` derives the zod schema that
// reads the flags; `groundwork agent` and `groundwork bootstrap` declare their flags from
// `AGENT_FLAGS`; the agent's Deployment gets its arguments from `agentArgs`. A new flag is an entry
// here and its use where the agent runs (`start.ts`).

/** How a flag's text is read (`options-schema.ts` turns each kind into a zod schema). */
export type FlagKind = 'text' | 'duration' | 'fraction' | 'port' | 'switch' | 'mode';

/** One flag of `groundwork agent`. */
export interface FlagSpec {
  /** As commander spells it (`--interval <duration>`); a `--no-x` switch is on unless given. */
  readonly flag: string;
  /** Its `--help` line. */
  readonly doc: string;
  readonly kind: FlagKind;
  /** As typed on the command line (shown by `--help`). */
  readonly default?: string;
  readonly required?: true;
  /**
   * `groundwork bootstrap` takes the flag too, with this help line and default, and passes its value
   * on in the agent Deployment's arguments.
   */
  readonly bootstrap?: { readonly doc: string; readonly default?: string };
}

/**
 * Every flag of `groundwork agent`, keyed by the name commander gives its value (`--max-prune-share`:
 * `maxPruneShare`, `--no-prune`: `prune`), in the order of the Deployment's arguments.
 */
export const AGENT_FLAGS = {
  repo: {
    flag: '--repo <url>',
    kind: 'text',
    required: true,
    doc: 'git repository (http/https; credentials from --credentials-secret or GROUNDWORK_GIT_TOKEN / _USERNAME / _PASSWORD)',
    bootstrap: { doc: 'platform repository (credentials from GROUNDWORK_GIT_TOKEN / _USERNAME / _PASSWORD)' },
  },
  branch: {
    flag: '--branch <name>',
    kind: 'text',
    doc: 'follow this branch (default: main)',
    bootstrap: {
      doc: "branch to follow (default: the ref of the overlay's environment in groundwork.yaml, else main)",
    },
  },
  tag: { flag: '--tag <name>', kind: 'text', doc: 'pin a tag', bootstrap: { doc: 'pin a tag' } },
  commit: {
    flag: '--commit <sha>',
    kind: 'text',
    doc: 'pin a commit (with --branch to search it there)',
    bootstrap: { doc: 'pin a commit' },
  },
  path: {
    flag: '--path <dir>',
    kind: 'text',
    doc: 'subdirectory holding groundwork.yaml',
    bootstrap: { doc: 'subdirectory holding groundwork.yaml' },
  },
  overlay: {
    flag: '--overlay <name>',
    kind: 'text',
    required: true,
    doc: 'overlay to apply',
    bootstrap: { doc: 'overlay the agent applies' },
  },
  mode: {
    flag: '--mode <mode>',
    kind: 'mode',
    default: 'self-heal',
    doc: 'detect-only: report drift, change only what git changes; self-heal: also restore drifted fields',
    bootstrap: { doc: 'detect-only or self-heal', default: 'self-heal' },
  },
  interval: {
    flag: '--interval <duration>',
    kind: 'duration',
    default: '1m',
    doc: 'poll interval (± 10% jitter): fetch, and re-plan unless git and the watched objects are unchanged',
    bootstrap: { doc: 'poll interval', default: '1m' },
  },
  /** The safety net behind the watches: every managed kind is relisted, the platform re-planned in full. */
  resyncInterval: {
    flag: '--resync-interval <duration>',
    kind: 'duration',
    default: '10m',
    doc: 'relist every managed kind and re-plan in full at least this often, even when nothing changed',
  },
  namespace: {
    flag: '--namespace <ns>',
    kind: 'text',
    default: 'groundwork-system',
    doc: 'namespace of the status object, lease and credentials Secret',
    bootstrap: { doc: 'namespace of the agent', default: 'groundwork-system' },
  },
  /** The PlatformSync's name; without it `<platform>-<overlay>`. */
  syncName: {
    flag: '--sync-name <name>',
    kind: 'text',
    doc: 'PlatformSync name (default <platform>-<overlay>)',
  },
  /** Git credentials: a Secret in the namespace (keys token or username/password), else GROUNDWORK_GIT_* env. */
  credentialsSecret: {
    flag: '--credentials-secret <name>',
    kind: 'text',
    doc: 'Secret in --namespace with token, or username and password',
  },
  leaderElect: {
    flag: '--leader-elect',
    kind: 'switch',
    doc: 'run several replicas: one acts (coordination.k8s.io Lease)',
  },
  leaseDuration: {
    flag: '--lease-duration <duration>',
    kind: 'duration',
    default: '15s',
    doc: 'lease duration for leader election',
  },
  httpPort: {
    flag: '--http-port <port>',
    kind: 'port',
    default: '8080',
    doc: 'port of /metrics, /healthz, /readyz and /webhook (0: none)',
  },
  httpBind: {
    flag: '--http-bind <address>',
    kind: 'text',
    doc: 'IP address the HTTP port listens on (default: 0.0.0.0 in a pod, where probes and the Service reach it; 127.0.0.1 elsewhere)',
    bootstrap: {
      doc: "the agent's --http-bind in its pod (:: on an IPv6-only cluster; probes and the Service need the pod IP)",
      default: '0.0.0.0',
    },
  },
  commitStatusSecret: {
    flag: '--commit-status-secret <name>',
    kind: 'text',
    doc: 'set commit statuses on the forge: Secret in --namespace whose key token may write them (README "Notifications")',
    bootstrap: {
      doc: 'set commit statuses on the forge: Secret in --namespace whose key token may write them (README "Notifications")',
    },
  },
  commitStatusForge: {
    flag: '--commit-status-forge <forge>',
    kind: 'text',
    doc: 'github, gitlab or gitea (Forgejo too) (default: from the repo host)',
    bootstrap: { doc: 'github, gitlab or gitea (Forgejo too) (default: from the repo host)' },
  },
  commitStatusApi: {
    flag: '--commit-status-api <url>',
    kind: 'text',
    doc: "the forge's API root (default: from the repo URL)",
    bootstrap: { doc: "the forge's API root (default: from the repo URL)" },
  },
  dashboardUrl: {
    flag: '--dashboard-url <url>',
    kind: 'text',
    doc: 'the link on each commit status',
    bootstrap: { doc: 'the link on each commit status' },
  },
  clusterName: {
    flag: '--cluster-name <name>',
    kind: 'text',
    doc: 'the cluster in commit status contexts and alerts (default: the overlay)',
    bootstrap: { doc: 'the cluster in commit status contexts and alerts (default: the overlay)' },
  },
  /**
   * The read-only dashboard on the HTTP port, behind a bearer token checked with TokenReview and a
   * SubjectAccessReview for `get` on the PlatformSync (src/ui/review-auth.ts).
   */
  dashboard: {
    flag: '--dashboard',
    kind: 'switch',
    doc: 'serve the read-only dashboard on the HTTP port, for bearer tokens allowed to get the PlatformSync (TokenReview, SubjectAccessReview)',
    bootstrap: {
      doc: 'the agent serves the read-only dashboard (its --dashboard), and its ServiceAccount is bound to system:auth-delegator for the token reviews',
    },
  },
  /**
   * Every fetched commit (or followed tag) must be signed by a key in this Secret, or
   * `configmap/<name>`, of the namespace; read at every fetch (README "Trusted commits").
   */
  verifyCommits: {
    flag: '--verify-commits <secret>',
    kind: 'text',
    doc: 'apply only commits (or followed tags) signed by a key in this Secret (or configmap/<name>) of --namespace: OpenPGP public keys and SSH allowed signers (README "Trusted commits")',
    bootstrap: {
      doc: 'the agent applies only commits signed by a key in this Secret (or configmap/<name>) of --namespace, and may get it (README "Trusted commits")',
    },
  },
  /** Trusted keys without requiring them: only an environment's `verify: true` asks. Ignored with verifyCommits. */
  trustedKeys: {
    flag: '--trusted-keys <secret>',
    kind: 'text',
    doc: 'the keys of --verify-commits without requiring them: only environments with verify: true in groundwork.yaml are checked',
  },
  /**
   * Secret whose `*.agekey` keys hold the age identities SopsSecret files are decrypted with, in
   * the agent after synth; without it a revision with a SopsSecret fails with SopsKeyMissing.
   */
  decryptionSecret: {
    flag: '--decryption-secret <name>',
    kind: 'text',
    doc: 'Secret in --namespace whose *.agekey keys hold the age identities SopsSecret files are decrypted with',
    bootstrap: {
      doc: 'the agent decrypts SopsSecrets with the age identities in this Secret of --namespace (*.agekey keys), and may get it (README "Secrets")',
    },
  },
  prune: { flag: '--no-prune', kind: 'switch', doc: 'never delete objects removed from git' },
  maxPruneShare: {
    flag: '--max-prune-share <fraction>',
    kind: 'fraction',
    default: '0.3',
    doc: 'largest share of the inventory one cycle may prune',
  },
  synthTimeout: {
    flag: '--synth-timeout <duration>',
    kind: 'duration',
    default: '2m',
    doc: 'kill a synth that runs longer',
  },
  /** Checked by `npmRegistryOf` (http(s), no credentials); unset: GROUNDWORK_NPM_REGISTRY, else npm's. */
  npmRegistry: {
    flag: '--npm-registry <url>',
    kind: 'text',
    doc: "registry of the platform's locked dependencies (package-lock.json), installed with npm ci --ignore-scripts (default: $GROUNDWORK_NPM_REGISTRY, else https://registry.npmjs.org/)",
  },
  npmTimeout: {
    flag: '--npm-timeout <duration>',
    kind: 'duration',
    default: '5m',
    doc: 'stop an install of the platform dependencies that runs longer',
  },
  kubeconfig: {
    flag: '--kubeconfig <file>',
    kind: 'text',
    doc: 'kubeconfig (default: in-cluster config, $KUBECONFIG, ~/.kube/config)',
  },
  context: { flag: '--context <name>', kind: 'text', doc: 'kubeconfig context' },
  logLevel: {
    flag: '--log-level <level>',
    kind: 'text',
    default: 'info',
    doc: 'trace, debug, info, warn or error',
  },
} as const satisfies Record<string, FlagSpec>;

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
  /** `--commit-status-*`, `--dashboard-url`: commit statuses on the forge (README "Notifications"). */
  commitStatus?: CommitStatusOptions;
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
