import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { KubeClient } from '../../src/cluster/client.js';

/**
 * A kubeconfig that authenticates as a ServiceAccount, on the server of `adminKubeconfig`: a real
 * token from the TokenRequest API (signed by the control plane's service-account key), so that
 * the apiserver's RBAC authorizer judges every request exactly as it would the pod's.
 */
export async function serviceAccountKubeconfig(opts: {
  admin: KubeClient;
  adminKubeconfig: string;
  namespace: string;
  name: string;
}): Promise<string> {
  const review = await opts.admin.request<{ status: { token: string } }>(
    'POST',
    `/api/v1/namespaces/${opts.namespace}/serviceaccounts/${opts.name}/token`,
    {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      },
    },
  );
  const config = parse(readFileSync(opts.adminKubeconfig, 'utf8')) as {
    users: { name: string; user: Record<string, unknown> }[];
  };
  config.users = config.users.map((u) => ({ name: u.name, user: { token: review.status.token } }));
  const file = join(mkdtempSync(join(tmpdir(), 'gw-sa-')), 'kubeconfig');
  writeFileSync(file, stringify(config), { mode: 0o600 });
  return file;
}
