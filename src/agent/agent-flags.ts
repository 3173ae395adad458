// The agent's flags, declared once. Plain data (this module imports nothing, so `groundwork --help`
// stays light): `options.ts` types them and writes them back out (`agentArgs`, the Deployment's
// arguments); `options-schema.ts` derives the zod schema that reads them (`agentOptionsOf`);
// `groundwork agent` and `groundwork bootstrap` declare their flags from `AGENT_FLAGS`. A new flag is
// an entry here and its use where the agent runs (`start.ts`).

/** How a flag's text is read (`options-schema.ts` turns each kind into a zod schema). */
export type FlagKind = 'text' | 'duration' | 'fraction' | 'port' | 'switch' | 'mode' | 'releases';

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
   * `groundwork bootstrap` takes the flag too, with this help line (@default the agent's) and
   * default, and passes its value on in the agent Deployment's arguments.
   */
  readonly bootstrap?: { readonly doc?: string; readonly default?: string };
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
    doc: 'git repository: https://, http://, ssh:// or user@host:path (credentials from --credentials-secret, or GROUNDWORK_GIT_TOKEN / _USERNAME / _PASSWORD, for SSH GROUNDWORK_GIT_SSH_KEY_FILE and GROUNDWORK_GIT_KNOWN_HOSTS_FILE; docs/repositories.md)',
    bootstrap: {
      doc: 'platform repository: https://, http://, ssh:// or user@host:path (credentials from GROUNDWORK_GIT_TOKEN / _USERNAME / _PASSWORD, for SSH GROUNDWORK_GIT_SSH_KEY_FILE and GROUNDWORK_GIT_KNOWN_HOSTS_FILE, put in the credentials Secret)',
    },
  },
  branch: {
    flag: '--branch <name>',
    kind: 'text',
    doc: 'follow this branch (default: main)',
    bootstrap: {
      doc: "branch to follow (default: the ref of the overlay's environment in groundwork.yaml, else main)",
    },
  },
  tag: { flag: '--tag <name>', kind: 'text', doc: 'pin a tag', bootstrap: {} },
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
    bootstrap: {},
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
    doc: 'PlatformSync name (default <platform>-<overlay>; required with --verify-commits or --trusted-keys)',
  },
  /** Git credentials: a Secret in the namespace (keys token or username/password), else GROUNDWORK_GIT_* env. */
  credentialsSecret: {
    flag: '--credentials-secret <name>',
    kind: 'text',
    doc: 'Secret in --namespace with token, or username and password, or for SSH identity and known_hosts (and password: the key passphrase)',
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
  /**
   * The renderer pod's URL (`groundwork renderer`): the agent sends it the fetched bytes and reads
   * back the rendered objects, and never runs repository content itself. Set by `bootstrap`.
   */
  renderer: {
    flag: '--renderer <url>',
    kind: 'text',
    doc: "render in the renderer pod at this URL (groundwork renderer; bootstrap sets it): repository content then never runs in the agent's pod (docs/security.md)",
  },
  commitStatusSecret: {
    flag: '--commit-status-secret <name>',
    kind: 'text',
    doc: 'set commit statuses on the forge: Secret in --namespace whose key token may write them (docs/notifications.md)',
    bootstrap: {},
  },
  commitStatusForge: {
    flag: '--commit-status-forge <forge>',
    kind: 'text',
    doc: 'github, gitlab or gitea (Forgejo too) (default: from the repo host)',
    bootstrap: {},
  },
  commitStatusApi: {
    flag: '--commit-status-api <url>',
    kind: 'text',
    doc: "the forge's API root (default: from the repo URL)",
    bootstrap: {},
  },
  dashboardUrl: {
    flag: '--dashboard-url <url>',
    kind: 'text',
    doc: 'the link on each commit status',
    bootstrap: {},
  },
  clusterName: {
    flag: '--cluster-name <name>',
    kind: 'text',
    doc: 'the cluster in commit status contexts and alerts (default: the overlay)',
    bootstrap: {},
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
   * `configmap/<name>`, of the namespace; read at every fetch (docs/trusted-commits.md).
   */
  verifyCommits: {
    flag: '--verify-commits <secret>',
    kind: 'text',
    doc: 'apply only commits (or followed tags) signed by a key in this Secret (or configmap/<name>) of --namespace: OpenPGP public keys and SSH allowed signers (docs/trusted-commits.md)',
    bootstrap: {
      doc: 'the agent applies only commits signed by a key in this Secret (or configmap/<name>) of --namespace, and may get it (docs/trusted-commits.md)',
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
      doc: 'the agent decrypts SopsSecrets with the age identities in this Secret of --namespace (*.agekey keys), and may get it (docs/secrets.md)',
    },
  },
  /**
   * The fleet hub (docs/hub.md): a bootstrap kubeconfig (`groundwork hub token create`), a file or
   * `secret/<name>` (key `kubeconfig`) in the namespace. The agent registers once, keeps its hub
   * credentials in Secret `groundwork-hub-credentials`, and reports after each status write; a hub
   * that cannot be reached never stops a cycle.
   */
  hub: {
    flag: '--hub <file | secret/name>',
    kind: 'text',
    doc: 'report to the fleet hub: the bootstrap kubeconfig groundwork hub token create wrote, a file or secret/<name> (key kubeconfig) in --namespace; hub credentials are kept in Secret groundwork-hub-credentials (docs/hub.md)',
    bootstrap: {
      doc: 'the agent reports to the fleet hub: secret/<name> of a Secret in --namespace holding the bootstrap kubeconfig (key kubeconfig); the agent may get it and keep its credentials in Secret groundwork-hub-credentials (docs/hub.md)',
    },
  },
  /**
   * With `hub`: whether the hub's releases (`FleetMember.spec.release`) gate what the agent applies
   * (`release-gate.ts`, docs/hub.md "Releases").
   */
  hubReleases: {
    flag: '--hub-releases <policy>',
    kind: 'releases',
    default: 'auto',
    doc: 'with --hub: auto (once the hub has released a revision to this cluster, apply only released commits of the branch), required (apply nothing the hub has not released, from the start) or off (report only) (docs/hub.md)',
    bootstrap: {
      doc: 'with --hub: the agent applies only what the hub released: auto (from the first release on; the agent default), required or off (docs/hub.md)',
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
  /** docs/security.md: only where the renderer cannot be isolated; never weakens isolation that works. */
  trustRepository: {
    flag: '--trust-repository',
    kind: 'switch',
    doc: "render even where the renderer cannot be isolated (not root, no user namespaces): repository content then runs with the agent's identity, beside its credentials; also GROUNDWORK_TRUST_REPOSITORY=1",
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
