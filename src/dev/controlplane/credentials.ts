import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** Identities the local control plane knows, from its static token file. */
export interface ControlPlaneCredentials {
  /** Bearer token of `admin` (group `system:masters`), written into the kubeconfig. */
  adminToken: string;
  /** Bearer token kube-controller-manager uses. */
  controllerManagerToken: string;
  /**
   * Bearer token of user `system:kube-scheduler` (no groups): what upstream's bootstrap RBAC grants
   * that user (ClusterRoles `system:kube-scheduler` and `system:volume-scheduler`), nothing more.
   */
  schedulerToken: string;
  /** Bearer token of user `kwok`, bound to KWOK's own ClusterRole (`data/kwok/role.yaml`) when KWOK runs. */
  kwokToken: string;
  tokenFile: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

/** Writes a static token file and a service-account signing key pair into `dir`. */
export async function writeCredentials(dir: string): Promise<ControlPlaneCredentials> {
  const adminToken = randomBytes(24).toString('hex');
  const controllerManagerToken = randomBytes(24).toString('hex');
  const schedulerToken = randomBytes(24).toString('hex');
  const kwokToken = randomBytes(24).toString('hex');
  const tokenFile = join(dir, 'tokens.csv');
  await writeFile(
    tokenFile,
    [
      `${adminToken},admin,admin-uid,"system:masters"`,
      `${controllerManagerToken},system:kube-controller-manager,kcm-uid,"system:masters"`,
      `${schedulerToken},system:kube-scheduler,kube-scheduler-uid`,
      `${kwokToken},kwok,kwok-uid`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const serviceAccountKey = join(dir, 'sa.key');
  const serviceAccountPub = join(dir, 'sa.pub');
  await writeFile(serviceAccountKey, privateKey, { mode: 0o600 });
  await writeFile(serviceAccountPub, publicKey);
  return {
    adminToken,
    controllerManagerToken,
    schedulerToken,
    kwokToken,
    tokenFile,
    serviceAccountKey,
    serviceAccountPub,
  };
}

/** A kubeconfig document for one server, CA bundle and bearer token. */
export function kubeconfigYaml(opts: {
  server: string;
  caPem: string;
  token: string;
  name: string;
  user: string;
}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: opts.name,
        cluster: {
          server: opts.server,
          'certificate-authority-data': Buffer.from(opts.caPem).toString('base64'),
        },
      },
    ],
    users: [{ name: opts.user, user: { token: opts.token } }],
    contexts: [{ name: opts.name, context: { cluster: opts.name, user: opts.user, namespace: 'default' } }],
    'current-context': opts.name,
  });
}

/**
 * Writes the kubeconfig of one identity of the local control plane (owner-only, mode 0600): the
 * apiserver at `server`, trusted through `caPem`, with `token` as user `user`.
 */
export async function writeKubeconfig(
  file: string,
  opts: { server: string; caPem: string; token: string; user: string },
): Promise<void> {
  await writeFile(file, kubeconfigYaml({ ...opts, name: 'groundwork-local' }), { mode: 0o600 });
}
