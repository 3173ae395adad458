import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeKubeconfig } from './credentials.js';
import { freePort } from './free-port.js';
import { startProcess, type ManagedProcess } from './process.js';
import { httpsStatus, waitUntil } from './readiness.js';

/** Where the local control plane's apiserver is and how a component trusts it. */
export interface ApiserverEndpoint {
  readonly server: string;
  /** The apiserver's serving certificate (self-signed), trusted by every component. */
  readonly caPem: string;
}

/**
 * Starts kube-scheduler against the local apiserver and resolves once its `/readyz` answers 200
 * (informers synced). It runs as user `system:kube-scheduler` (its own kubeconfig, `token`), whom
 * upstream's bootstrap RBAC grants exactly what a scheduler needs, including the delegated
 * authentication and authorization of its own endpoint, as kubeadm configures it. It serves on a free
 * loopback port with a self-signed certificate in `<workDir>/kube-scheduler-certs`, and elects no
 * leader (it is the only one).
 */
export async function startScheduler(opts: {
  binary: string;
  apiserver: ApiserverEndpoint;
  token: string;
  workDir: string;
  detached?: boolean;
  timeoutMs?: number;
}): Promise<ManagedProcess> {
  const kubeconfig = join(opts.workDir, 'kube-scheduler.kubeconfig');
  await writeKubeconfig(kubeconfig, { ...opts.apiserver, token: opts.token, user: 'kube-scheduler' });
  const certDir = join(opts.workDir, 'kube-scheduler-certs');
  await mkdir(certDir, { recursive: true });
  const port = await freePort();
  const scheduler = startProcess({
    name: 'kube-scheduler',
    binary: opts.binary,
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${certDir}`,
      '--profiling=false',
    ],
    logFile: join(opts.workDir, 'kube-scheduler.log'),
    detached: opts.detached,
  });
  try {
    // The self-signed certificate the scheduler writes at start (leaf and its CA in one file).
    const certFile = join(certDir, 'kube-scheduler.crt');
    await waitUntil({
      subject: `kube-scheduler on 127.0.0.1:${port}`,
      processes: [scheduler],
      timeoutMs: opts.timeoutMs ?? 60_000,
      check: async () => {
        let ca: Buffer;
        try {
          ca = readFileSync(certFile);
        } catch {
          return 'no serving certificate yet';
        }
        const status = await httpsStatus(`https://127.0.0.1:${port}/readyz`, ca);
        return status === 200 ? true : `/readyz ${status}`;
      },
    });
  } catch (err) {
    await scheduler.stop(2000);
    throw err;
  }
  return scheduler;
}
