import { POST_SYNTH_CHECKS } from '../reconcile/domains.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { trustedKeysRefOf } from '../agent/trusted-keys-source.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChangeSet } from '../apply/changeset.js';
import { INVENTORY_NAMESPACE, inventoryName } from '../apply/inventory.js';
import { isNotFound } from '../cluster/api-error.js';
import { packageRoot } from '../core/crd-dirs.js';
import type { K8sObject } from '../core/object.js';
import { readObjects } from '../core/yaml-files.js';
import type { GitAuth } from '../source/credentials.js';
import { checkoutRoot } from '../source/checkouts.js';
import { fetchRevision, type SourceRef } from '../source/fetch-revision.js';
import { environmentFor, loadProject } from '../project/project.js';
import { refuseAgentNamespaceObjects } from '../plan/agent-namespace.js';
import { renderPlatform } from '../render/render-platform.js';
import { compareManifests, setHash, toManifest } from '../render/synth/manifest.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import { bootstrapObjects, type BootstrapSpec } from './bootstrap-objects.js';
import { CREDENTIALS_SECRET } from './agent-deployment.js';
import { parseRepoUrl } from '../source/repo-url.js';
import { agentEgress, agentIngress, type NetworkPolicyChoices } from './bootstrap-network.js';
import { egressNeeds, type EgressNeed } from './egress-hosts.js';
import type { AgentEgress } from './network-policy.js';
import { agentRbac, managedRefs } from './rbac.js';
import type { CommitStatusOptions } from '../agent/notifications.js';
import { passedOn, type PassedOnText } from '../agent/options.js';
import type { ClusterSession } from '../reconcile/cluster-session.js';
import { observeAndPlan } from '../reconcile/observe-and-plan.js';
import { applyObserved } from '../reconcile/apply-observed.js';

/**
 * What `groundwork bootstrap` plans with: the agent flags it passes on as they are (`PassedOnText`;
 * `--verify-commits` and `--decryption-secret` also let the agent get that Secret or ConfigMap,
 * `--dashboard` binds it for its token reviews), the repository, and bootstrap's own choices.
 */
export interface BootstrapOptions extends PassedOnText {
  repository: { url: string; ref: SourceRef; path?: string };
  /**
   * When the overlay belongs to an environment of groundwork.yaml (read from `ref`), follow that
   * environment's branch instead of `ref`. Set when no branch, tag or commit was asked for.
   */
  followEnvironment?: boolean;
  overlay: string;
  /**
   * Render the platform from this local directory (the one holding groundwork.yaml) instead of
   * fetching `repository` (`--from`): no network, no git credentials needed to plan. The agent
   * still fetches `repository`.
   */
  checkout?: string;
  namespace: string;
  mode: BootstrapSpec['mode'];
  /** The PlatformSync's and the agent's `--interval`, as written into the PlatformSync (`60s`). */
  interval: string;
  image: string;
  replicas: number;
  auth?: GitAuth;
  webhookSecret?: string;
  /** The agent's commit statuses; its token Secret is added to the Secrets the agent may get. */
  commitStatus?: CommitStatusOptions;
  /**
   * The agent's NetworkPolicy: egress to the cluster DNS, the apiserver, the git host,
   * `extraHosts` and `extraCidrs` only; ingress from the metrics namespaces and, with a webhook secret, the ingress
   * controller's. `false` installs none for the agent; the renderer's NetworkPolicy (no egress,
   * ingress from the agent only) is part of the renderer's isolation and is always installed.
   * @default { extraCidrs: [] }
   */
  networkPolicy?: false | NetworkPolicyChoices;
}

/** The agent's objects for a repository, and the platform they were computed from. */
export interface BootstrapPlan {
  platform: SynthResult;
  /**
   * Namespaces the agent's Roles go into that do not exist yet (the platform's own Namespace
   * object when it declares one, else a bare one), created before the objects and kept in no
   * inventory: the platform's first apply adopts the ones it declares.
   */
  namespaces: K8sObject[];
  objects: K8sObject[];
  /**
   * The agent's egress: what its NetworkPolicy allows (`allowed`; undefined without one) and the
   * hosts the platform needs beside the apiserver and git (`egressNeeds`: npm, remote charts).
   */
  egress: { allowed: AgentEgress | undefined; needs: EgressNeed[] };
  /** The agent's own inventory: platform `groundwork-agent`, overlay `<platform>-<overlay>`. */
  inventory: SynthResult;
  /**
   * What a plan made without a cluster, or from a local directory (`checkout`), could not know,
   * one sentence each (empty with a cluster and a fetch): the printout says them.
   */
  notes: string[];
}

/**
 * Computes what installs the agent for a repository: fetches it (the same way the agent will; or
 * reads `checkout`, a local directory, without any network),
 * synthesizes the overlay in a child process, derives least-privilege RBAC (`agentRbac`) from the
 * objects it declares and those its inventory still holds (so that the agent can prune what left
 * git; a namespace's Role goes at the first bootstrap after its last object was pruned), and
 * returns Groundwork's CRDs plus `bootstrapObjects`, as the synth result of the agent's own
 * inventory (`groundwork-agent/<platform>-<overlay>`), so re-running bootstrap updates and prunes
 * the agent's objects and never touches the platform's.
 *
 * Without a session (`groundwork bootstrap --print` where no kubeconfig is found) nothing is read
 * from a cluster: plurals are Kubernetes' guesses and scopes the objects' own (`managedRefs`), no
 * inventory adds prunable objects, every namespace the Roles go into is in `namespaces`, and the
 * NetworkPolicy is left out (its egress needs the apiserver's and the cluster DNS addresses);
 * `notes` says so.
 */
export async function planBootstrap(
  session: ClusterSession | undefined,
  opts: BootstrapOptions,
): Promise<BootstrapPlan> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'groundwork-bootstrap-'));
  try {
    const fetch = (ref: SourceRef) =>
      fetchRevision({
        url: opts.repository.url,
        ref,
        cacheDir,
        ...(opts.repository.path ? { path: opts.repository.path } : {}),
        ...(opts.auth ? { auth: opts.auth } : {}),
      });
    let ref = opts.repository.ref;
    const local = opts.checkout === undefined ? undefined : resolve(opts.checkout);
    let fetched = local ? { dir: local } : await fetch(ref);
    let project = await loadProject(fetched.dir);
    const environment = opts.followEnvironment ? environmentFor(project, opts.overlay) : undefined;
    // The overlay's environment names the branch its agents follow (promotion moves it).
    if (local && environment) ref = { branch: environment.ref };
    else if (environment && !('branch' in ref && ref.branch === environment.ref && !('commit' in ref))) {
      ref = { branch: environment.ref };
      fetched = await fetch(ref);
      project = await loadProject(fetched.dir);
    }
    // Rendered as the CLI renders (trust domain `local`): the renderer holds none of bootstrap's credentials.
    const [platform] = await renderPlatform(project, {
      checks: POST_SYNTH_CHECKS,
      domain: 'local',
      treeRoot: local ?? checkoutRoot(fetched.dir, opts.repository.path ?? '.'),
      overlay: opts.overlay,
    });
    // A platform that could act as the agent is refused before anything is derived or applied.
    refuseAgentNamespaceObjects(platform!.manifests, { namespace: opts.namespace, scope: 'all' });
    const resources = session ? await session.discovery.all() : [];
    const served = new Map(resources.map((r) => [`${r.group}/${r.kind}`, r]));
    const desired = platform!.manifests.map((m) => m.object);
    const inventory = session ? await session.inventory.read(platform!.platform, opts.overlay) : undefined;
    // The alert Secret the overlay's environment names (docs/notifications.md): read by the agent by name.
    const alertSecret = environmentFor(project, opts.overlay)?.notifications?.secret;
    const rbac = agentRbac({
      notificationSecrets: [
        ...(alertSecret ? [alertSecret] : []),
        ...(opts.commitStatus ? [opts.commitStatus.secret] : []),
      ],
      objects: managedRefs(desired, inventory?.objects ?? [], (group, kind) =>
        served.get(`${group}/${kind}`),
      ),
      namespace: opts.namespace,
      ...(opts.verifyCommits ? { trustedKeys: trustedKeysRefOf(opts.verifyCommits) } : {}),
      ...(opts.decryptionSecret ? { decryptionSecret: opts.decryptionSecret } : {}),
      ...(opts.auth?.ssh?.identity ? { credentialsSecret: CREDENTIALS_SECRET } : {}),
      inventory: { namespace: INVENTORY_NAMESPACE, name: inventoryName(platform!.platform, opts.overlay) },
    });
    const openshift = resources.some((r) => r.group === 'project.openshift.io');
    const egress =
      opts.networkPolicy === false || !session
        ? undefined
        : await agentEgress(
            session.client,
            opts.repository.url,
            opts.networkPolicy?.extraCidrs ?? [],
            opts.networkPolicy?.extraHosts ?? [],
          );
    const crds = (await readObjects(join(packageRoot, 'crds'))).filter(
      (o) => o.kind === 'CustomResourceDefinition',
    );
    const objects = [
      ...crds,
      ...bootstrapObjects({
        ...passedOn(opts),
        platform: platform!.platform,
        overlay: opts.overlay,
        namespace: opts.namespace,
        repository: {
          url: stripUserinfo(opts.repository.url),
          ref: ref as BootstrapSpec['repository']['ref'],
          ...(opts.repository.path ? { path: opts.repository.path } : {}),
        },
        mode: opts.mode,
        interval: opts.interval,
        image: opts.image,
        replicas: opts.replicas,
        rbac,
        ...(opts.auth ? { credentials: opts.auth } : {}),
        ...(opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : {}),
        ...(opts.commitStatus ? { commitStatus: opts.commitStatus } : {}),
        ...(!egress
          ? {}
          : {
              networkPolicy: {
                egress,
                ingress: agentIngress({
                  choices: opts.networkPolicy || { extraCidrs: [] },
                  openshift,
                  webhook: Boolean(opts.webhookSecret),
                }),
              },
            }),
      }),
    ];
    const namespaces = await missingNamespaces(
      session,
      rbac.namespaced.map((r) => r.namespace).filter((ns) => ns !== opts.namespace),
      desired,
    );
    const notes = [
      ...(local
        ? [
            `Rendered from ${local} (--from), not fetched: RBAC covers what it declares now; the agent will fetch ${stripUserinfo(opts.repository.url)}.`,
          ]
        : []),
      ...(session ? [] : offlineNotes(opts.networkPolicy !== false)),
    ];
    const manifests = objects
      .map((o) => toManifest(o, `bootstrap/${o.kind}/${o.metadata.name}`))
      .sort(compareManifests);
    const agentInventory: SynthResult = {
      platform: 'groundwork-agent',
      overlay: `${platform!.platform}-${opts.overlay}`,
      manifests,
      hash: setHash(manifests),
      warnings: [],
    };
    return {
      platform: platform!,
      namespaces,
      objects,
      egress: { allowed: egress, needs: await egressNeeds(project.dir) },
      inventory: agentInventory,
      notes,
    };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** What a plan without a cluster leaves out or guesses. */
function offlineNotes(networkPolicy: boolean): string[] {
  return [
    'Planned without a cluster (no kubeconfig found): RBAC covers the objects git declares, with guessed plurals; objects only the inventory still holds get none.',
    'Every namespace the Roles go into is printed; applying one that exists changes nothing.',
    ...(networkPolicy
      ? [
          "No NetworkPolicy for the agent: its egress needs the apiserver's and the cluster DNS addresses. Run bootstrap with a kubeconfig to get it, or add your own (the renderer's, which denies all its egress, is printed).",
        ]
      : []),
  ];
}

/**
 * Of `names`, the namespaces that do not exist (all of them without a session): the platform's
 * Namespace object for each it declares, else a bare one.
 */
async function missingNamespaces(
  session: ClusterSession | undefined,
  names: readonly string[],
  desired: readonly K8sObject[],
): Promise<K8sObject[]> {
  const missing: K8sObject[] = [];
  for (const name of names) {
    if (session && (await namespaceExists(session, name))) continue;
    missing.push(
      desired.find((o) => o.apiVersion === 'v1' && o.kind === 'Namespace' && o.metadata.name === name) ?? {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      },
    );
  }
  return missing;
}

async function namespaceExists(session: ClusterSession, name: string): Promise<boolean> {
  try {
    await session.client.request('GET', `/api/v1/namespaces/${encodeURIComponent(name)}`);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/**
 * Applies a bootstrap plan: creates its missing namespaces first (server-side apply with
 * Groundwork's field manager, as the platform's apply will), then applies the agent's objects,
 * pruning those a previous bootstrap made that are gone now.
 *
 * The agent's objects are bootstrap's own, so they are applied with force, as `flux bootstrap`
 * re-applies Flux's components (server-side apply with forced ownership): fields another manager
 * took (a hand-run agent's PlatformSync spec, a `kubectl edit` of the Deployment) become
 * bootstrap's again instead of failing with a conflict. Only the agent's inventory is forced;
 * the platform's objects are never applied here.
 */
export async function applyBootstrap(
  session: ClusterSession,
  plan: BootstrapPlan,
  revision: string,
): Promise<ChangeSet> {
  for (const ns of plan.namespaces) await session.target.apply(ns, { force: false });
  const observed = await observeAndPlan(session, plan.inventory, { revision, force: true });
  return applyObserved(session, observed, {
    revision,
    wait: false,
    prune: true,
    allowMassPrune: true,
    force: true,
  });
}

/** An HTTP(S) URL without userinfo (credentials go in the Secret); an SSH URL as it is (its user is no secret). */
function stripUserinfo(url: string): string {
  return parseRepoUrl(url).kind === 'ssh' ? url : url.replace(/\/\/[^@/]*@/, '//');
}
