import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import type { PolicyRule } from '../../src/install/rbac-rules.js';
import { KubeClient } from '../../src/cluster/client.js';

const tokenRequestSchema = z.object({ status: z.object({ token: z.string().min(1) }) });

/**
 * A real token of the ServiceAccount `namespace/name` from the TokenRequest API (signed by the
 * control plane's service-account key), so the apiserver's authenticator and RBAC authorizer judge
 * it exactly as they would the pod's.
 */
export async function serviceAccountToken(
  admin: KubeClient,
  namespace: string,
  name: string,
  expirationSeconds = 3600,
): Promise<string> {
  const review = await admin.request(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
    {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds } },
      schema: tokenRequestSchema,
    },
  );
  return review.status.token;
}

/** A kubeconfig that authenticates as a ServiceAccount, on the server of `adminKubeconfig`. */
export async function serviceAccountKubeconfig(opts: {
  admin: KubeClient;
  adminKubeconfig: string;
  namespace: string;
  name: string;
}): Promise<string> {
  const token = await serviceAccountToken(opts.admin, opts.namespace, opts.name);
  const config = parse(readFileSync(opts.adminKubeconfig, 'utf8')) as {
    users: { name: string; user: Record<string, unknown> }[];
  };
  config.users = config.users.map((u) => ({ name: u.name, user: { token } }));
  const file = join(mkdtempSync(join(tmpdir(), 'gw-sa-')), 'kubeconfig');
  writeFileSync(file, stringify(config), { mode: 0o600 });
  return file;
}

/**
 * Creates the ServiceAccount `agent` in `namespace`, bound to a Role `agent` with `rules` when they
 * are given (none: the account may do nothing), and returns a client on its own token. The caller
 * closes the client.
 */
export async function agentAccountClient(opts: {
  admin: KubeClient;
  adminKubeconfig: string;
  namespace: string;
  rules?: PolicyRule[];
}): Promise<KubeClient> {
  const { admin, namespace: ns } = opts;
  await admin.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name: 'agent' } },
  });
  if (opts.rules) {
    await admin.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      body: { metadata: { name: 'agent' }, rules: opts.rules },
    });
    await admin.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      body: {
        metadata: { name: 'agent' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agent' },
        subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }],
      },
    });
  }
  const kubeconfig = await serviceAccountKubeconfig({ ...opts, name: 'agent' });
  return KubeClient.load({ kubeconfig });
}

/** A Role `name` in `namespace` with `rules`, bound (RoleBinding `name`) to the ServiceAccounts `subjects`. */
export async function bindRole(
  admin: KubeClient,
  opts: {
    namespace: string;
    name: string;
    rules: PolicyRule[];
    subjects: { namespace: string; name: string }[];
  },
): Promise<void> {
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${opts.namespace}`;
  await admin.request('POST', `${rbac}/roles`, {
    body: { metadata: { name: opts.name }, rules: opts.rules },
  });
  await admin.request('POST', `${rbac}/rolebindings`, {
    body: {
      metadata: { name: opts.name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: opts.name },
      subjects: opts.subjects.map((s) => ({ kind: 'ServiceAccount', ...s })),
    },
  });
}
