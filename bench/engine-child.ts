// Groundwork's engine in its own process, as the agent runs it: one session, a first apply, then a
// no-op reconcile of the same files. Prints JSON timings, request counts and peak RSS.
// `node dist/bench/engine-child.js <kubeconfig> <dir-of-manifests> <overlay>`
import { ClusterSession } from '../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../src/reconcile/apply-observed.js';
import { KubeClient } from '../src/cluster/client.js';
import { readObjects } from '../src/core/yaml-files.js';
import { compareManifests, setHash, toManifest } from '../src/render/synth/manifest.js';
import { changeFirstConfigMap } from './objects.js';

const [kubeconfig, dir, overlay] = process.argv.slice(2) as [string, string, string];
const session = new ClusterSession(await KubeClient.load({ kubeconfig, maxSockets: 32 }));
const revision = 'bench@sha1:0000000000000000000000000000000000000000';

async function reconcile(opts: { change?: boolean } = {}) {
  const before = { ...session.client.counts };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const read0 = await readObjects(dir);
  // A one-object change: the first ConfigMap's data differs from what was applied.
  const objects = opts.change ? changeFirstConfigMap(read0, String(Date.now())) : read0;
  const manifests = objects.map((o) => toManifest(o, `bench/${o.metadata.name}`)).sort(compareManifests);
  const read = performance.now();
  const observed = await observeAndPlan(
    session,
    { platform: 'bench', overlay, manifests, hash: setHash(manifests), warnings: [] },
    { revision },
  );
  const planned = performance.now();
  const changes = await applyObserved(session, observed, { revision, wait: false, concurrency: 32 });
  const done = performance.now();
  const requests = Object.fromEntries(
    Object.entries(session.client.counts).map(([m, n]) => [m, n - (before[m] ?? 0)]),
  );
  const used = process.cpuUsage(cpu);
  return {
    totalMs: done - started,
    cpuMs: (used.user + used.system) / 1000,
    readMs: read - started,
    planMs: planned - read,
    applyMs: done - planned,
    counts: changes.counts,
    error: changes.error?.message,
    requests,
    writes: Object.entries(requests)
      .filter(([m]) => m !== 'GET')
      .reduce((n, [, c]) => n + c, 0),
  };
}

const first = await reconcile();
// Markers on stderr let the parent sample the apiserver's CPU around the no-op alone.
process.stderr.write('noop-start\n');
const noop = await reconcile();
process.stderr.write('noop-end\n');
const change = process.argv.includes('--change') ? await reconcile({ change: true }) : undefined;
session.client.close();
process.stdout.write(
  JSON.stringify({ first, noop, change, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
);
