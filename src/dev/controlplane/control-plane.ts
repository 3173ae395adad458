import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { resolveBinaries, type BinarySet } from './binaries.js';
import { writeCredentials, writeKubeconfig, type ControlPlaneCredentials } from './credentials.js';
import { freePort } from './free-port.js';
import { logTail, registerScratchDir, startProcess, type ManagedProcess } from './process.js';
import { formatElapsed, silentProgress, type Progress } from '../../core/progress.js';
import { waitForServer } from './readiness.js';
import { KubeClient } from '../../cluster/client.js';
import type { NodeSpec } from './nodes.js';
import { resolveWorkloadBinaries } from './workload-binaries.js';
import { startWorkloads, WORKLOAD_CONTROLLERS } from './workloads.js';

/** Controllers of kube-controller-manager that make deletion and cascades behave as on a cluster. */
const DEFAULT_CONTROLLERS = [
  'namespace',
  'garbagecollector',
  'serviceaccount',
  'serviceaccount-token',
  'deployment',
  'replicaset',
] as const;

interface ControlPlaneOptions {
  binaries?: BinarySet;
  progress?: Progress;
  env?: NodeJS.ProcessEnv;
  /** Leave the processes running when this Node process exits (`groundwork cluster up`). @default false */
  detached?: boolean;
  /** Directory for certificates, tokens, logs and the kubeconfig. @default a new directory under the OS temp dir */
  workDir?: string;
  /** Write an audit log of every request to `<workDir>/audit.log` (used to count writes). @default false */
  auditLog?: boolean;
  /** kube-controller-manager controllers. @default DEFAULT_CONTROLLERS, plus WORKLOAD_CONTROLLERS with `nodes` */
  controllers?: readonly string[];
  /**
   * Run pods: kube-scheduler, KWOK and the workload controllers, with these nodes registered and
   * Ready (`clusterNodes`). Their binaries are found or built the first time (minutes; see
   * `resolveWorkloadBinaries`) before anything starts.
   * @default none: no nodes, no scheduler, so pods stay Pending
   */
  nodes?: readonly NodeSpec[];
  /**
   * Refuse to start without kube-controller-manager, instead of running without namespace deletion
   * and garbage collection (the test harness: tests of deletion must fail, not pass, without it).
   * @default false
   */
  requireControllerManager?: boolean;
}

/** What a running control plane exposes; also the state `groundwork cluster up` records. */
export interface ControlPlaneInfo {
  server: string;
  kubeconfig: string;
  workDir: string;
  etcdDir: string;
  etcdUrl: string;
  pids: {
    etcd: number;
    kubeApiserver: number;
    kubeControllerManager?: number;
    kubeScheduler?: number;
    kwok?: number;
  };
  binaries: BinarySet;
  auditLog?: string;
  startedAt: string;
}

/**
 * A real kube-apiserver with etcd (and kube-controller-manager) on loopback, like envtest:
 * random free ports, its own temp directories (etcd data in `/dev/shm`), RBAC authorization,
 * static bearer tokens, service-account issuer and keys.
 *
 * @example
 * const cp = await LocalControlPlane.start({ progress });
 * try { ...use cp.info.kubeconfig... } finally { await cp.stop(); }
 */
export class LocalControlPlane {
  private constructor(
    readonly info: ControlPlaneInfo,
    private readonly processes: ManagedProcess[],
    readonly credentials: ControlPlaneCredentials,
    private readonly apiserverSpec: Parameters<typeof startProcess>[0],
    private readonly ownsWorkDir: boolean,
    private readonly scratch: { release(): void }[],
  ) {}

  /**
   * Starts etcd, kube-apiserver and kube-controller-manager (and with `nodes`, kube-scheduler and KWOK);
   * resolves once `/readyz` and `default` exist (and every node is Ready).
   */
  static async start(opts: ControlPlaneOptions = {}): Promise<LocalControlPlane> {
    const progress = opts.progress ?? silentProgress;
    const resolved = opts.binaries ?? (await resolveBinaries({ progress, env: opts.env }));
    const binaries = opts.nodes
      ? { ...resolved, ...(await resolveWorkloadBinaries(resolved, { progress, env: opts.env })) }
      : resolved;
    if (
      opts.requireControllerManager &&
      (!binaries.kubeControllerManager || !existsSync(binaries.kubeControllerManager))
    ) {
      throw new GroundworkError({
        code: 'ControllerManagerMissing',
        message: `kube-controller-manager is required here and ${binaries.kubeControllerManager ?? 'none was found'}${binaries.kubeControllerManager ? ' does not exist' : ''}`,
        fix: 'set TEST_ASSET_KUBE_CONTROLLER_MANAGER, put kube-controller-manager in KUBEBUILDER_ASSETS, or run `groundwork cluster up` once to build it',
      });
    }
    const started = Date.now();
    const ownsWorkDir = opts.workDir === undefined;
    const workDir = opts.workDir ?? (await mkdtemp(join(tmpdir(), 'groundwork-cp-')));
    await mkdir(workDir, { recursive: true });
    const etcdDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'groundwork-etcd-'));
    const processes: ManagedProcess[] = [];
    // Detached instances outlive this process on purpose; `cluster down` removes their data.
    const scratch = opts.detached ? [] : [etcdDir, ...(ownsWorkDir ? [workDir] : [])].map(registerScratchDir);
    const credentials = await writeCredentials(workDir);
    try {
      progress.start('starting etcd');
      const [etcdClient, etcdPeer, apiPort] = await Promise.all([freePort(), freePort(), freePort()]);
      const etcdUrl = `http://127.0.0.1:${etcdClient}`;
      const peerUrl = `http://127.0.0.1:${etcdPeer}`;
      const etcd = startProcess({
        name: 'etcd',
        binary: binaries.etcd,
        args: [
          `--data-dir=${etcdDir}`,
          `--listen-client-urls=${etcdUrl}`,
          `--advertise-client-urls=${etcdUrl}`,
          `--listen-peer-urls=${peerUrl}`,
          `--initial-advertise-peer-urls=${peerUrl}`,
          `--initial-cluster=default=${peerUrl}`,
          '--unsafe-no-fsync=true',
          '--log-level=warn',
        ],
        logFile: join(workDir, 'etcd.log'),
        detached: opts.detached,
      });
      processes.push(etcd);

      progress.start('starting kube-apiserver');
      const certDir = join(workDir, 'certs');
      await mkdir(certDir, { recursive: true });
      const auditLog = opts.auditLog ? join(workDir, 'audit.log') : undefined;
      const auditArgs = auditLog ? await auditFlags(workDir, auditLog) : [];
      const apiserverSpec: Parameters<typeof startProcess>[0] = {
        name: 'kube-apiserver',
        binary: binaries.kubeApiserver,
        args: [
          `--etcd-servers=${etcdUrl}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--secure-port=${apiPort}`,
          `--cert-dir=${certDir}`,
          `--token-auth-file=${credentials.tokenFile}`,
          '--authorization-mode=RBAC',
          // Room for 65k Services: a /24 (envtest's) holds 254, fewer than one large platform needs.
          '--service-cluster-ip-range=10.0.0.0/16',
          '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
          `--service-account-key-file=${credentials.serviceAccountPub}`,
          `--service-account-signing-key-file=${credentials.serviceAccountKey}`,
          '--allow-privileged=true',
          '--profiling=false',
          ...auditArgs,
        ],
        logFile: join(workDir, 'kube-apiserver.log'),
        detached: opts.detached,
      };
      const apiserver = startProcess(apiserverSpec);
      processes.push(apiserver);

      const server = `https://127.0.0.1:${apiPort}`;
      const caFile = join(certDir, 'apiserver.crt');
      await waitForServer({ server, caFile, token: credentials.adminToken, processes, timeoutMs: 90_000 });
      const caPem = await readFile(caFile, 'utf8');
      const kubeconfig = join(workDir, 'kubeconfig');
      await writeKubeconfig(kubeconfig, { server, caPem, token: credentials.adminToken, user: 'admin' });

      let kcmPid: number | undefined;
      if (binaries.kubeControllerManager) {
        progress.start('starting kube-controller-manager');
        const kcmConfig = join(workDir, 'kcm.kubeconfig');
        await writeKubeconfig(kcmConfig, {
          server,
          caPem,
          token: credentials.controllerManagerToken,
          user: 'kcm',
        });
        const kcm = startProcess({
          name: 'kube-controller-manager',
          binary: binaries.kubeControllerManager,
          args: [
            `--kubeconfig=${kcmConfig}`,
            `--controllers=${(opts.controllers ?? [...DEFAULT_CONTROLLERS, ...(opts.nodes ? WORKLOAD_CONTROLLERS : [])]).join(',')}`,
            '--leader-elect=false',
            '--secure-port=0',
            `--service-account-private-key-file=${credentials.serviceAccountKey}`,
            `--root-ca-file=${caFile}`,
            '--concurrent-gc-syncs=20',
            '--concurrent-namespace-syncs=10',
          ],
          logFile: join(workDir, 'kube-controller-manager.log'),
          detached: opts.detached,
        });
        processes.push(kcm);
        kcmPid = kcm.pid;
      } else {
        progress.info(
          'kube-controller-manager not available: namespace deletion and garbage collection will not run',
        );
      }
      const workloadPids: Pick<ControlPlaneInfo['pids'], 'kubeScheduler' | 'kwok'> = {};
      if (opts.nodes && binaries.kubeScheduler && binaries.kwok) {
        const admin = await KubeClient.load({ kubeconfig });
        try {
          const [scheduler, kwok] = await startWorkloads({
            binaries: { kubeScheduler: binaries.kubeScheduler, kwok: binaries.kwok },
            apiserver: { server, caPem },
            credentials,
            admin,
            nodes: opts.nodes,
            workDir,
            detached: opts.detached,
            progress,
          });
          processes.push(scheduler!, kwok!);
          Object.assign(workloadPids, { kubeScheduler: scheduler!.pid, kwok: kwok!.pid });
        } finally {
          admin.close();
        }
      }
      progress.succeed(`control plane ready at ${server} (${formatElapsed(Date.now() - started)})`);
      const info: ControlPlaneInfo = {
        server,
        kubeconfig,
        workDir,
        etcdDir,
        etcdUrl,
        pids: {
          etcd: etcd.pid,
          kubeApiserver: apiserver.pid,
          ...(kcmPid ? { kubeControllerManager: kcmPid } : {}),
          ...workloadPids,
        },
        binaries,
        ...(auditLog ? { auditLog } : {}),
        startedAt: new Date().toISOString(),
      };
      return new LocalControlPlane(info, processes, credentials, apiserverSpec, ownsWorkDir, scratch);
    } catch (err) {
      progress.fail('control plane failed to start');
      await Promise.all(processes.map((p) => p.stop(2000)));
      await rm(etcdDir, { recursive: true, force: true });
      if (ownsWorkDir && !process.env.GROUNDWORK_KEEP_LOGS)
        await rm(workDir, { recursive: true, force: true });
      throw err instanceof GroundworkError
        ? err
        : new GroundworkError({ code: 'ControlPlaneStartFailed', message: String(err), cause: err });
    }
  }

  /** PIDs of every process this instance started. */
  get pids(): number[] {
    return this.processes.map((p) => p.pid);
  }

  /**
   * Stops kube-apiserver (SIGTERM), waits `downMs`, and starts it again with the same flags and
   * port; resolves once it is ready. For failure-injection tests ("restart the apiserver mid-apply").
   */
  async restartApiserver(opts: { downMs?: number } = {}): Promise<void> {
    const index = this.processes.findIndex((p) => p.name === 'kube-apiserver');
    const old = this.processes[index]!;
    await old.stop(5000);
    if (opts.downMs) await new Promise((r) => setTimeout(r, opts.downMs));
    const next = startProcess(this.apiserverSpec);
    this.processes[index] = next;
    this.info.pids.kubeApiserver = next.pid;
    await waitForServer({
      server: this.info.server,
      caFile: join(this.info.workDir, 'certs', 'apiserver.crt'),
      token: this.credentials.adminToken,
      processes: this.processes,
      timeoutMs: 90_000,
    });
  }

  /**
   * Stops exactly the processes it started (by PID), removes its etcd data and, when it created
   * it, its work directory (kept when `GROUNDWORK_KEEP_LOGS` is set).
   */
  async stop(): Promise<void> {
    for (const p of [...this.processes].reverse()) await p.stop(5000);
    await rm(this.info.etcdDir, { recursive: true, force: true });
    if (this.ownsWorkDir && !process.env.GROUNDWORK_KEEP_LOGS) {
      await rm(this.info.workDir, { recursive: true, force: true });
    }
    for (const s of this.scratch) s.release();
  }

  /** Log tails of all processes, for error reports. */
  logs(lines = 20): string {
    return this.processes.map((p) => `--- ${p.name} (pid ${p.pid})\n${logTail(p.logFile, lines)}`).join('\n');
  }
}

async function auditFlags(workDir: string, auditLog: string): Promise<string[]> {
  const policy = join(workDir, 'audit-policy.yaml');
  // Only writes are of interest (counting them is how tests prove a no-op reconcile writes nothing).
  await writeFile(
    policy,
    [
      'apiVersion: audit.k8s.io/v1',
      'kind: Policy',
      'omitStages: ["RequestReceived"]',
      'rules:',
      '  - level: None',
      '    verbs: ["get", "list", "watch"]',
      '  - level: Metadata',
      '',
    ].join('\n'),
  );
  return [`--audit-policy-file=${policy}`, `--audit-log-path=${auditLog}`, '--audit-log-mode=blocking'];
}
