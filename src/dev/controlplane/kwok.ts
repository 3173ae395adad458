import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import { dataPath } from '../../core/data-dir.js';
import { readObjects } from '../../core/yaml-files.js';
import { writeKubeconfig } from './credentials.js';
import { KWOK_NODE_ANNOTATION } from './nodes.js';
import { startProcess, type ManagedProcess } from './process.js';
import type { ApiserverEndpoint } from './scheduler.js';

/**
 * Starts KWOK against the local apiserver as user `kwok`, bound (here, through `admin`) to KWOK's own
 * ClusterRole `kwok-controller` (`data/kwok/role.yaml`): it may read nodes, write node and pod
 * status, leases and events, and delete pods, nothing else. It follows the Stages shipped with KWOK
 * v0.8.0 (`data/kwok/stages/`: a node turns Ready at once and gets a heartbeat and lease; a bound pod
 * runs and is Ready at once, a Job's pod then succeeds, a deleted pod goes), passed as one
 * `--config` file, and manages only the nodes annotated `kwok.x-k8s.io/node: fake` (`nodeObject`),
 * never a Node someone else made. It opens no port and has no readiness endpoint: the caller waits
 * for its nodes to turn Ready.
 */
export async function startKwok(opts: {
  binary: string;
  apiserver: ApiserverEndpoint;
  token: string;
  admin: KubeClient;
  workDir: string;
  detached?: boolean;
}): Promise<ManagedProcess> {
  await bindKwokRole(opts.admin);
  const kubeconfig = join(opts.workDir, 'kwok.kubeconfig');
  await writeKubeconfig(kubeconfig, { ...opts.apiserver, token: opts.token, user: 'kwok' });
  const config = join(opts.workDir, 'kwok-stages.yaml');
  await writeFile(config, await stagesConfig());
  return startProcess({
    name: 'kwok',
    binary: opts.binary,
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--config=${config}`,
      `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
      // Pod addresses for nodes without a podCIDR (ours have one each); apart from the Service range.
      '--cidr=10.244.0.0/16',
    ],
    logFile: join(opts.workDir, 'kwok.log'),
    detached: opts.detached,
  });
}

/** The shipped Stages as one multi-document file, in file-name order. */
async function stagesConfig(): Promise<string> {
  const dir = dataPath('kwok', 'stages');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  const docs = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
  return docs.map((d) => `---\n${d.trimEnd()}\n`).join('');
}

/** KWOK's ClusterRole and a binding of it to user `kwok`; existing ones are left as they are. */
async function bindKwokRole(admin: KubeClient): Promise<void> {
  const [role] = await readObjects(dataPath('kwok', 'role.yaml'));
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'groundwork:kwok' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role!.metadata.name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'kwok' }],
  };
  for (const [path, body] of [
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles', role],
    ['/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding],
  ] as const) {
    await admin.request('POST', path, { body }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
    });
  }
}
