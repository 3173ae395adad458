// `node --expose-gc --import tsx bench/desired-memory.ts [--secrets 500]`: what the agent's desired
// objects for the dashboard (`agentDesired`) cost for 5,000 objects: the heap one view holds (its
// index; the objects are the agent's own, shared) and the time to build it (once per applied
// revision and redaction key). Twenty views of the same manifests are built and held, and the heap
// difference after a full GC is divided by twenty; Secrets add a redacted copy each.
import { agentDesired } from '../src/agent/agent-desired.js';
import type { GoodRevision } from '../src/agent/agent-state.js';
import type { K8sObject } from '../src/core/object.js';
import type { PlatformData } from '../src/reconcile/domains.js';
import { toManifest } from '../src/render/synth/manifest.js';

const OBJECTS = 5000;
const VIEWS = 20;
const flag = process.argv.indexOf('--secrets');
const secrets = flag > 0 ? Number(process.argv[flag + 1]) : 0;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const manifests = Array.from({ length: OBJECTS }, (_, i) => {
  const namespace = `ns${i % 50}`;
  const object: K8sObject =
    i < secrets
      ? ({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `s${i}`, namespace },
          stringData: { token: 'x'.repeat(64), password: 'y'.repeat(32) },
        } as K8sObject)
      : ({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: `d${i}`, namespace },
          spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
        } as K8sObject);
  return toManifest(object, `platform/o${i}`);
});
const goods: GoodRevision[] = Array.from({ length: VIEWS }, (_, k) => ({
  revision: `main@sha1:${k}`,
  synth: { platform: 'p', overlay: 'dev', manifests, hash: 'h', warnings: [] },
  data: {} as PlatformData,
}));
agentDesired(() => goods[0])(); // warm-up: the redaction key, the JIT
gc();
gc();
const before = process.memoryUsage().heapUsed;
const started = performance.now();
const views = goods.map((g) => agentDesired(() => g)());
const ms = (performance.now() - started) / VIEWS;
gc();
gc();
const kib = (process.memoryUsage().heapUsed - before) / VIEWS / 1024;
process.stdout.write(
  `${OBJECTS} objects, ${secrets} Secrets: ${kib.toFixed(0)} KiB a view, built in ${ms.toFixed(1)} ms (${views.length} views held)\n`,
);
