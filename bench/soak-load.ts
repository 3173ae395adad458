// The load of `bench soak`: out-of-band edits checked to be restored, MachineConfig-changing commits
// checked to be applied, and apiserver restarts. Each loop runs until `until` and counts what it did.
import type { KubeClient } from '../src/cluster/client.js';

const CONFIG_MAP = '/api/v1/namespaces/platform-gitops/configmaps/platform-info';
const CHRONY = '/apis/machineconfiguration.openshift.io/v1/machineconfigs/50-worker-chrony';

interface ConfigMap {
  data?: Record<string, string>;
}
interface MachineConfig {
  spec?: { config?: { storage?: { files?: { path: string; contents?: { source?: string } }[] } } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms (errors count as "not yet") for at most `ms`; true when it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(100);
  }
  return false;
}

/** The platform's ConfigMap still holds git's value. */
export async function ownerIsGit(client: KubeClient): Promise<boolean> {
  return (await client.request<ConfigMap>('GET', CONFIG_MAP)).data?.owner === 'platform-team';
}

/**
 * Every `everyMs`: an out-of-band edit of the platform's ConfigMap (like `kubectl edit`), then
 * waits up to `timeoutMs` for the agent to restore it. An edit the apiserver refused (restarting)
 * is not counted.
 */
export async function editLoop(opts: {
  client: KubeClient;
  until: number;
  everyMs: number;
  timeoutMs: number;
  counts: { editsRestored: number; editsTotal: number; slowestRestoreMs: number };
  log: (line: string) => void;
}): Promise<void> {
  const { client, counts } = opts;
  for (let n = 1; Date.now() < opts.until; n++) {
    const start = Date.now();
    const edited = await client
      .request<ConfigMap>('GET', CONFIG_MAP)
      .then((live) =>
        client.request('PUT', CONFIG_MAP, {
          body: { ...live, data: { ...live.data, owner: `soak-edit-${n}` } },
          query: { fieldManager: 'kubectl-edit' },
        }),
      )
      .then(() => true)
      .catch(() => false);
    if (edited) {
      counts.editsTotal++;
      if (await within(opts.timeoutMs, () => ownerIsGit(client))) {
        counts.editsRestored++;
        counts.slowestRestoreMs = Math.max(counts.slowestRestoreMs, Date.now() - start);
      } else
        opts.log(
          `edit ${n} (made ${new Date(start).toISOString()}) not restored within ${opts.timeoutMs} ms`,
        );
    }
    await sleep(Math.max(0, start + opts.everyMs - Date.now()));
  }
}

/**
 * Every `everyMs`: a commit that changes the worker chrony MachineConfig (`publish(n)` writes and
 * pushes it, returning the server name it set), then waits up to `timeoutMs` for that server in
 * the live MachineConfig.
 */
export async function commitLoop(opts: {
  client: KubeClient;
  until: number;
  everyMs: number;
  timeoutMs: number;
  publish: (n: number) => Promise<string>;
  counts: { commitsApplied: number; commitsTotal: number };
  log: (line: string) => void;
}): Promise<void> {
  const { client, counts } = opts;
  for (let n = 1; Date.now() + opts.everyMs < opts.until; n++) {
    await sleep(opts.everyMs);
    const start = Date.now();
    const server = await opts.publish(n);
    counts.commitsTotal++;
    if (
      await within(opts.timeoutMs, async () =>
        chronyServers(await client.request('GET', CHRONY)).includes(server),
      )
    )
      counts.commitsApplied++;
    await sleep(Math.max(0, start + 1000 - Date.now()));
  }
}

/** The text of /etc/chrony.conf in a MachineConfig (a `data:,` URL, percent-encoded). */
function chronyServers(mc: MachineConfig): string {
  const source = mc.spec?.config?.storage?.files?.find((f) => f.path === '/etc/chrony.conf')?.contents
    ?.source;
  return source?.startsWith('data:,') ? decodeURIComponent(source.slice('data:,'.length)) : '';
}

/** Every `everyMs`: the apiserver stops, stays down `downMs`, and starts again. */
export async function restartLoop(opts: {
  until: number;
  everyMs: number;
  restart: () => Promise<void>;
  counts: { restarts: number };
  log: (line: string) => void;
}): Promise<void> {
  while (Date.now() + opts.everyMs < opts.until) {
    await sleep(opts.everyMs);
    const start = Date.now();
    await opts.restart();
    opts.counts.restarts++;
    opts.log(`apiserver restarted: ready again after ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}
