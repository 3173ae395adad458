// Runs Flux's kustomize-controller against a local control plane, and plays source-controller's part
// thinly: source-controller cannot be built here (the module proxy refuses fluxcd/pkg/artifact), so
// the benchmark packs the manifests into a tar.gz, serves it over loopback HTTP, and writes the
// GitRepository status (artifact url, revision, digest, size; Ready) as source-controller does.
// kustomize-controller then downloads the artifact, verifies its digest and applies it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeClient } from '../../src/cluster/client.js';
import { installCrds } from '../../src/cluster/crds.js';
import { freePort } from '../../src/dev/controlplane/free-port.js';
import { startProcess, type ManagedProcess } from '../../src/dev/controlplane/process.js';
import type { K8sObject } from '../../src/core/object.js';
import { readObjects } from '../../src/core/yaml-files.js';
import type { FluxBuild } from './build.js';
import { CONFIG_LABEL, controllerArgs, type FluxConfig } from './configs.js';

const SOURCE_API = '/apis/source.toolkit.fluxcd.io/v1';
const KUSTOMIZE_API = '/apis/kustomize.toolkit.fluxcd.io/v1';

export interface RunningFlux {
  readonly process: ManagedProcess;
  readonly metricsUrl: string;
  stop(): Promise<void>;
}

/**
 * Installs the Flux CRDs and starts kustomize-controller in `config` as its own process, metrics on
 * loopback. It reconciles only Kustomizations labelled for `config` (see `createKustomization`).
 */
export async function startKustomizeController(
  client: KubeClient,
  build: FluxBuild,
  opts: { kubeconfig: string; logDir: string; config: FluxConfig },
): Promise<RunningFlux> {
  await installCrds(client, await readObjects(build.crds));
  const [metrics, health] = [await freePort(), await freePort()];
  const proc = startProcess({
    name: `kustomize-controller-${opts.config.name}`,
    binary: build.binary,
    args: controllerArgs(opts.config, { metrics, health }),
    logFile: join(opts.logDir, `kustomize-controller-${opts.config.name}.log`),
    env: { ...process.env, KUBECONFIG: opts.kubeconfig },
  });
  const metricsUrl = `http://127.0.0.1:${metrics}/metrics`;
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`http://127.0.0.1:${health}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { process: proc, metricsUrl, stop: () => proc.stop() };
}

/** An artifact as source-controller records it in `status.artifact`. */
export interface Artifact {
  readonly path: string;
  readonly url: string;
  readonly revision: string;
  readonly digest: string;
  readonly size: number;
}

/** Serves tar.gz artifacts on loopback, as source-controller's storage server does. */
export class ArtifactServer {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly files: Map<string, Buffer>,
  ) {}

  static async start(): Promise<ArtifactServer> {
    const files = new Map<string, Buffer>();
    const server = createServer((req, res) => {
      const body = files.get(req.url ?? '');
      if (!body) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': body.length }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return new ArtifactServer(server, (server.address() as AddressInfo).port, files);
  }

  /** Packs `objects` (one YAML stream file) into a tar.gz and serves it; `commit` names the revision. */
  publish(namespace: string, name: string, objects: readonly K8sObject[], commit: string): Artifact {
    const dir = mkdtempSync(join(tmpdir(), 'gw-flux-artifact-'));
    try {
      mkdirSync(join(dir, 'src'));
      // JSON documents: any YAML reader reads them as the same objects.
      writeFileSync(
        join(dir, 'src', 'objects.yaml'),
        objects.map((o) => `---\n${JSON.stringify(o)}\n`).join(''),
      );
      execFileSync('tar', ['-czf', join(dir, 'a.tar.gz'), '-C', join(dir, 'src'), '.']);
      const body = readFileSync(join(dir, 'a.tar.gz'));
      const path = `gitrepository/${namespace}/${name}/${commit}.tar.gz`;
      this.files.set(`/${path}`, body);
      return {
        path,
        url: `http://127.0.0.1:${this.port}/${path}`,
        revision: `main@sha1:${commit}`,
        digest: `sha256:${createHash('sha256').update(body).digest('hex')}`,
        size: body.length,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/**
 * Creates the GitRepository (once) and writes its status for `artifact`, as source-controller does
 * after fetching a new commit: `status.artifact` and `Ready=True` (`Succeeded`).
 */
export async function publishGitRepository(
  client: KubeClient,
  namespace: string,
  name: string,
  artifact: Artifact,
): Promise<void> {
  const path = `${SOURCE_API}/namespaces/${namespace}/gitrepositories/${name}`;
  const existing = await client.request<K8sObject>('GET', path).catch(() => undefined);
  const obj =
    existing ??
    (await client.request<K8sObject>('POST', `${SOURCE_API}/namespaces/${namespace}/gitrepositories`, {
      body: {
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        kind: 'GitRepository',
        metadata: { name, namespace },
        spec: { url: 'https://git.invalid/platform.git', interval: '10m', ref: { branch: 'main' } },
      },
    }));
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string) => ({
    type,
    status: 'True',
    reason: 'Succeeded',
    message: `stored artifact for revision '${artifact.revision}'`,
    lastTransitionTime: now,
    observedGeneration: obj.metadata.generation ?? 1,
  });
  await client.request('PUT', `${path}/status`, {
    body: {
      ...obj,
      status: {
        observedGeneration: obj.metadata.generation ?? 1,
        artifact: { ...artifact, lastUpdateTime: now },
        conditions: ['Ready', 'ArtifactInStorage'].map(condition),
      },
    },
  });
}

/**
 * A Kustomization applying the GitRepository's root, pruning, every `interval`, labelled for the
 * controller of `config`.
 */
export async function createKustomization(
  client: KubeClient,
  namespace: string,
  name: string,
  opts: { interval: string; config: FluxConfig; wait?: boolean },
): Promise<void> {
  await client.request('POST', `${KUSTOMIZE_API}/namespaces/${namespace}/kustomizations`, {
    body: {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name, namespace, labels: { [CONFIG_LABEL]: opts.config.name } },
      spec: {
        interval: opts.interval,
        path: './',
        prune: true,
        wait: opts.wait ?? false,
        sourceRef: { kind: 'GitRepository', name },
      },
    },
  });
}

export interface KustomizationStatus {
  lastAppliedRevision?: string;
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
}

interface Kustomization {
  metadata: { generation?: number };
  status?: KustomizationStatus & { observedGeneration?: number };
}

/**
 * Polls the Kustomization every `intervalMs` until `done`; past `timeoutMs` throws with `failure`.
 * A failed GET counts as not done when `tolerateErrors`, and throws otherwise.
 */
async function untilKustomization(
  client: KubeClient,
  namespace: string,
  name: string,
  opts: {
    done: (k: Kustomization | undefined) => boolean;
    failure: (k: Kustomization | undefined) => string;
    timeoutMs: number;
    intervalMs: number;
    tolerateErrors: boolean;
  },
): Promise<Kustomization | undefined> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const get = client.request<Kustomization>(
      'GET',
      `${KUSTOMIZE_API}/namespaces/${namespace}/kustomizations/${name}`,
    );
    const k = opts.tolerateErrors ? await get.catch(() => undefined) : await get;
    if (opts.done(k)) return k;
    if (Date.now() > deadline) throw new Error(opts.failure(k));
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
}

const readyOf = (k: Kustomization | undefined) => k?.status?.conditions?.find((c) => c.type === 'Ready');

/** Polls until the Kustomization reports `revision` applied and Ready; resolves to the status. */
export async function kustomizationApplied(
  client: KubeClient,
  namespace: string,
  name: string,
  revision: string,
  timeoutMs = 600_000,
): Promise<KustomizationStatus> {
  const k = await untilKustomization(client, namespace, name, {
    done: (k) => k?.status?.lastAppliedRevision === revision && readyOf(k)?.status === 'True',
    failure: (k) =>
      `Kustomization ${namespace}/${name} did not apply ${revision}: ${JSON.stringify(k?.status)}`,
    timeoutMs,
    intervalMs: 50,
    tolerateErrors: true,
  });
  return k!.status!;
}

/** Merge-patches a Kustomization's spec (interval, suspend). */
export async function patchKustomization(
  client: KubeClient,
  namespace: string,
  name: string,
  spec: { interval?: string; suspend?: boolean },
): Promise<void> {
  await client.request('PATCH', `${KUSTOMIZE_API}/namespaces/${namespace}/kustomizations/${name}`, {
    body: { spec },
    contentType: 'application/merge-patch+json',
  });
}

/** Waits until the Kustomization has reconciled its current generation and is Ready. */
export async function kustomizationSettled(
  client: KubeClient,
  namespace: string,
  name: string,
  timeoutMs = 900_000,
): Promise<void> {
  await untilKustomization(client, namespace, name, {
    done: (k) => k?.status?.observedGeneration === k?.metadata.generation && readyOf(k)?.status === 'True',
    failure: () => `Kustomization ${namespace}/${name} did not settle`,
    timeoutMs,
    intervalMs: 100,
    tolerateErrors: false,
  });
}
