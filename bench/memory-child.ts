// What the agent keeps in memory, piece by piece: `node --expose-gc dist/bench/memory-child.js
// <kubeconfig> <checkout> <overlay>`. Builds the agent's long-lived structures one after the other
// against a live cluster that already holds the platform, with a full GC before each reading, and
// prints [{ what, mb }] (heap in use added by each).
import { ClusterSession } from '../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../src/reconcile/observe-and-plan.js';
import { KubeClient } from '../src/cluster/client.js';
import { renderPlatform } from '../src/render/render-platform.js';

const [kubeconfig, checkout, overlay] = process.argv.slice(2) as [string, string, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const used = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const parts: { what: string; mb: number }[] = [];
let last = used();
const record = (what: string) => {
  const now = used();
  parts.push({ what, mb: (now - last) / 1048576 });
  last = now;
};

const client = await KubeClient.load({ kubeconfig });
const session = new ClusterSession(client, { cache: true });
record('the cluster client, discovery and caches (empty)');
const [synth] = await renderPlatform(checkout, { overlay, domain: 'local' });
record('the last good revision: its synth result (manifests, canonical objects, hashes)');
const objects = synth!.manifests.map((m) => m.object);
// As the agent's runner does (`Agent.managed`): one set of the manifests' ids, for both.
const managed = new Set(synth!.manifests.map((m) => m.id));
record("the managed ids (one set of the manifests' ids, read by the drift watch and the caches)");
await session.cache!.track(objects, managed);
while (session.cache!.fingerprint() === undefined) await new Promise((r) => setTimeout(r, 50));
record('the watch-fed caches: every live managed object');
const observed = await observeAndPlan(session, synth!, { revision: 'bench' });
record("one cycle's plan, while it runs (freed after the cycle)");
void managed;
void observed;
session.cache!.stop();
client.close();
process.stdout.write(JSON.stringify(parts));
