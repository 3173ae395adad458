import { resolve } from 'node:path';
import type { ClusterSession } from '../reconcile/cluster-session.js';
import type { Observed } from '../reconcile/observe-and-plan.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { ClusterFlags } from './cluster-flags.js';
import { decryptForCommand, synthForCommand } from './synth-for-command.js';
import { loadProject, type Project } from '../project/project.js';
import { checkKubeconfigSelection } from '../cluster/kubeconfig-selection.js';

/** What `plan`, `drift` and `apply` start from. The caller closes `session.client`. */
export interface CommandObservation {
  /** The work tree's groundwork.yaml, read once (`loadProject`). */
  project: Project;
  synth: SynthResult;
  session: ClusterSession;
  /** The work tree's revision, `<branch>@sha1:<hex>[+dirty]`. */
  revision: string;
  observed: Observed;
}

/**
 * Synthesizes the platform in the synth child, then observes the cluster and plans. The child is
 * started before this process loads the cluster client, the engine and isomorphic-git, so those
 * imports (most of a short command's own time) run while the child synthesizes. The cluster is
 * contacted only once synth has succeeded: on validation errors the issues are printed and the
 * result is undefined (exit 2, nothing planned). Failures are reported in that order too: a synth
 * error before a kubeconfig or work-tree error, and a kubeconfig error before a SopsSecret that
 * does not decrypt (the key is the operator's, like the kubeconfig, and only the cluster's absence
 * makes every other answer moot), except what the flags select: a `--kubeconfig`
 * that does not exist, a kubeconfig that does not parse and a `--context` it lacks are reported
 * before synth starts (`checkKubeconfigSelection`, which loads no cluster client).
 */
export async function synthAndObserve(
  flags: ClusterFlags,
  opts: {
    force?: boolean;
    /**
     * A platform with Subscriptions on a cluster where no OLM acts (`olmNotServed`): `fail` throws
     * `OlmNotServed` before anything is planned (apply, which would wait for CSVs in vain), `warn`
     * prints it on stderr. @default 'warn'
     */
    olm?: 'fail' | 'warn';
  } = {},
): Promise<CommandObservation | undefined> {
  // The kubeconfig and --context first: a mistyped context fails in milliseconds, not after synth.
  await checkKubeconfigSelection(flags);
  const synthesis = settle(
    loadProject(resolve(flags.dir)).then(async (project) => {
      const synth = await synthForCommand(flags, project);
      return synth && { project, synth };
    }),
  );
  const [{ openSession }, { observeAndPlan }, { describeWorkTree }] = await Promise.all([
    import('./cluster-options.js'),
    import('../reconcile/observe-and-plan.js'),
    import('../source/local-revision.js'),
  ]);
  const described = settle(describeWorkTree(resolve(flags.dir)));
  const rendered = unwrap(await synthesis);
  if (!rendered) return undefined;
  const { project } = rendered;
  const revision = unwrap(await described);
  const session = await openSession(flags);
  try {
    const synth = await decryptForCommand(rendered.synth);
    await checkOlm(session, synth, opts.olm ?? 'warn');
    const observed = await observeAndPlan(session, synth, { revision, force: opts.force ?? false });
    warnUnavailableApis(observed.unavailableApis);
    return { project, synth, session, revision, observed };
  } catch (err) {
    session.client.close();
    throw err;
  }
}

/** Says at once when the platform's Subscriptions would wait for an OLM the cluster does not run. */
async function checkOlm(session: ClusterSession, synth: SynthResult, mode: 'fail' | 'warn'): Promise<void> {
  if (!synth.manifests.some((m) => m.object.kind === 'Subscription')) return;
  const { observeOlm, olmNotServed } = await import('../cluster/olm-served.js');
  const presence = await observeOlm(session.client);
  const problem = presence && olmNotServed(synth.manifests, presence);
  if (!problem) return;
  if (mode === 'fail') throw problem;
  process.stderr.write(`warning: ${problem.toString()}\n`);
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise that never rejects, so it can wait unobserved while other work runs. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function unwrap<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

/** kubectl's habit: an unavailable aggregated API is a warning, not a failure, unless the platform uses it. */
function warnUnavailableApis(apis: readonly string[]): void {
  for (const api of apis)
    process.stderr.write(`warning: ${api} is unavailable on the server (discovery: Stale); skipped\n`);
}
