// The raw ceiling in its own process (as Groundwork's engine runs in its own): a tight concurrent
// server-side-apply PATCH loop over the same objects, nothing else.
// `node dist/bench/raw-child.js <kubeconfig> <namespace> <count> <concurrency>` prints the time in ms.
import pLimit from 'p-limit';
import { KubeClient } from '../src/cluster/client.js';
import { benchConfigMap } from './objects.js';

const [kubeconfig, ns, count, concurrency] = process.argv.slice(2) as [string, string, string, string];
const client = await KubeClient.load({ kubeconfig, maxSockets: 32 });
const limit = pLimit(Number(concurrency));
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    limit(() =>
      client.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/cm-${i}`, {
        body: benchConfigMap(ns, i),
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: 'raw-bench' },
      }),
    ),
  ),
);
process.stdout.write(String(performance.now() - started));
client.close();
