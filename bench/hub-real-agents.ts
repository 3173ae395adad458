// The real members of `bench hub` (issue 34): beside the load generator's simulated members, a few
// real `groundwork agent --hub FILE` processes (the build, GROUNDWORK_RUN_FROM=dist), each syncing a
// local control plane of its own from one platform repository served over git smart-HTTP
// (bench-platform-repo.ts). Each registers with its own bootstrap token (`issueBootstrap`, as
// `hub token create`) in `prod`, runs with `--hub-releases required`, and is released its first
// commit as an earlier rollout would have; the bench's rollout then releases a new commit of the
// branch and the hub's RolloutController waits for these agents as for any member.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { KubeClient } from '../src/cluster/client.js';
import { installCrds } from '../src/cluster/crds.js';
import { defaultCrdDirs } from '../src/core/crd-dirs.js';
import type { K8sObject } from '../src/core/object.js';
import { readObjects } from '../src/core/yaml-files.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import type { GitServer } from '../src/dev/git-server.js';
import { HUB_NAMESPACE, HUB_PATHS } from '../src/hub/hub-names.js';
import { issueBootstrap } from '../src/hub/hub-token.js';
import { readFleetMember, type FleetMemberObject } from '../src/hub/member-schema.js';
import { rfc3339 } from '../src/hub/schema-parts.js';
import { serveBenchPlatform } from './bench-platform-repo.js';
import { cpuMs } from './flux/proc-stats.js';
import { realMemberProfiles, type RealMemberProfile } from './hub-real-plan.js';

const BIN = new URL('../../bin/groundwork.js', import.meta.url).pathname;
const BRANCH = 'main';
const NAMESPACE = 'groundwork-system';
/** The platform each agent syncs: small, so the agents' renders stay a small part of the machine. */
const SIZE = { namespaces: 2, objects: 20 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RealMember {
  readonly profile: RealMemberProfile;
  readonly cp: LocalControlPlane;
  readonly client: KubeClient;
  agent?: ChildProcess;
  /** The last 8 KB of the agent's log (for an error message). */
  tail: string;
}

/** Real agents on real control planes, as members of the bench's hub. */
export class RealAgents {
  /** Report-to-visible of their reports as the bench's watch saw them (ms; `reportedAt` has whole seconds). */
  readonly visibleMs: number[] = [];
  private readonly lastSequence = new Map<string, number>();
  private commit = '';

  private constructor(
    private readonly members: RealMember[],
    private readonly root: string,
    private readonly server: GitServer,
    private readonly publishCommit: (changed: Record<string, string>, message: string) => Promise<string>,
  ) {}

  /**
   * Starts `count` control planes at once (namespace controller only: lean on a 2-core machine),
   * installs Groundwork's CRDs and the agents' namespace on each, and serves the platform repository.
   */
  static async start(count: number): Promise<RealAgents> {
    const root = await mkdtemp(join(tmpdir(), 'gw-bench-hub-real-'));
    const [repo, cps] = await Promise.all([
      serveBenchPlatform(root, SIZE),
      Promise.all(
        Array.from({ length: count }, () => LocalControlPlane.start({ controllers: ['namespace'] })),
      ),
    ]);
    const crds = (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat();
    const members = await Promise.all(
      realMemberProfiles(count).map(async (profile, i) => {
        const cp = cps[i]!;
        const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig, userAgent: 'bench-hub-real' });
        await installCrds(client, crds);
        await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NAMESPACE } } });
        return { profile, cp, client, tail: '' };
      }),
    );
    return new RealAgents(members, root, repo.server, repo.publish);
  }

  get names(): string[] {
    return this.members.map((m) => m.profile.name);
  }

  /** The branch the agents follow: the rollout's ref. */
  get branch(): string {
    return BRANCH;
  }

  /** Objects of the platform each agent applies. */
  get objects(): number {
    return SIZE.namespaces + SIZE.objects;
  }

  /** The processes outside the hub, for their CPU: each cluster's control plane, and the agents. */
  pids(): { controlPlanes: number[]; agents: number[] } {
    return {
      controlPlanes: this.members.flatMap((m) =>
        [m.cp.info.pids.etcd, m.cp.info.pids.kubeApiserver, m.cp.info.pids.kubeControllerManager].filter(
          (p): p is number => p !== undefined,
        ),
      ),
      agents: this.members.flatMap((m) => (m.agent?.pid ? [m.agent.pid] : [])),
    };
  }

  /**
   * Each agent registers with its own bootstrap token (environment `environment`, its profile's
   * labels), then gets the repository's first commit released (`spec.release`, as a finished
   * rollout leaves it); resolves once every member's report shows that commit applied, Ready.
   */
  async join(admin: KubeClient, environment: string, timeoutMs = 600_000): Promise<void> {
    this.commit = await this.publishCommit({ 'cm-0': 'first' }, 'the first released revision');
    await Promise.all(
      this.members.map(async (m) => {
        const issued = await issueBootstrap(admin, {
          namespace: HUB_NAMESPACE,
          member: m.profile.name,
          labels: m.profile.labels,
          environment,
          ttlSeconds: 3600,
        });
        const file = join(this.root, `${m.profile.name}.bootstrap.yaml`);
        writeFileSync(file, issued.kubeconfig, { mode: 0o600 });
        m.agent = this.spawnAgent(m, file);
      }),
    );
    const started = Date.now();
    await Promise.all(
      this.members.map(async (m) => {
        await this.until(
          m,
          started,
          timeoutMs,
          'registered',
          async () => (await this.member(admin, m)) !== undefined,
        );
        await admin.request('PATCH', HUB_PATHS.fleetMember(m.profile.name), {
          body: {
            spec: {
              release: {
                revision: `${BRANCH}@sha1:${this.commit}`,
                rollout: 'bench-initial',
                wave: 0,
                releasedAt: rfc3339(Date.now()),
              },
            },
          },
          contentType: 'application/merge-patch+json',
        });
        await this.until(m, started, timeoutMs, `${this.commit.slice(0, 8)} applied and Ready`, async () => {
          const report = (await this.member(admin, m))?.report;
          return (
            report?.revision?.applied === `${BRANCH}@sha1:${this.commit}` && report.ready.status === 'True'
          );
        });
      }),
    );
  }

  /** A new commit of the branch (one ConfigMap changed), pushed; its sha: the rollout's revision. */
  async publish(): Promise<string> {
    this.commit = await this.publishCommit({ 'cm-0': `rolled-${Date.now()}` }, 'the revision rolled out');
    return this.commit;
  }

  /** Every FleetMember event of the bench's watch: a new report of a real member, its visible latency. */
  onMember(obj: K8sObject, now: number): void {
    const status = (obj as { status?: { sequence?: number; reportedAt?: string } }).status;
    const name = obj.metadata.name;
    if (!this.members.some((m) => m.profile.name === name) || status?.sequence === undefined) return;
    if (this.lastSequence.get(name) === status.sequence) return;
    this.lastSequence.set(name, status.sequence);
    const at = Date.parse(status.reportedAt ?? '');
    if (Number.isFinite(at)) this.visibleMs.push(now - at);
  }

  /**
   * Each member's report now: its Ready (`True (ReconciliationSucceeded)`) and its
   * `lastAppliedTime` (ms; whole seconds, as the agent's PlatformSync status has it).
   */
  async finalReports(admin: KubeClient): Promise<Map<string, { ready: string; lastApplied?: number }>> {
    const out = new Map<string, { ready: string; lastApplied?: number }>();
    for (const m of this.members) {
      const report = (await this.member(admin, m))?.report;
      const lastApplied = Date.parse(report?.lastAppliedTime ?? '');
      out.set(m.profile.name, {
        ready: report ? `${report.ready.status} (${report.ready.reason})` : 'no report',
        ...(Number.isFinite(lastApplied) ? { lastApplied } : {}),
      });
    }
    return out;
  }

  /** Stops the agents (SIGTERM, waited for), the git server, the clusters; removes the bench's files. */
  async stop(): Promise<void> {
    await Promise.all(
      this.members.map(async (m) => {
        const agent = m.agent;
        if (agent && agent.exitCode === null && agent.signalCode === null) {
          const exited = new Promise((r) => agent.once('exit', r));
          agent.kill('SIGTERM');
          await exited;
        }
      }),
    );
    await this.server.stop();
    for (const m of this.members) m.client.close();
    await Promise.all(this.members.map((m) => m.cp.stop().catch(() => undefined)));
    await rm(this.root, { recursive: true, force: true });
  }

  /** `groundwork agent --hub FILE` from the build on `m`'s cluster; its log's tail kept. */
  private spawnAgent(m: RealMember, hubFile: string): ChildProcess {
    const agent = spawn(
      process.execPath,
      [
        BIN,
        'agent',
        '--repo',
        this.server.url('platform.git'),
        '--overlay',
        'bench',
        '--interval',
        '30s',
        '--namespace',
        NAMESPACE,
        '--http-port',
        '0',
        '--kubeconfig',
        m.cp.info.kubeconfig,
        '--hub',
        hubFile,
        '--hub-releases',
        'required',
        '--log-level',
        'warn',
      ],
      {
        env: {
          ...process.env,
          GROUNDWORK_RUN_FROM: 'dist',
          GROUNDWORK_CACHE_DIR: join(this.root, `${m.profile.name}-cache`),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (d: Buffer) => (m.tail = (m.tail + d.toString()).slice(-8192));
    agent.stdout!.on('data', keep);
    agent.stderr!.on('data', keep);
    // Stopped by a signal, the control planes kill their processes; the agents too.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => agent.kill('SIGKILL'));
    return agent;
  }

  private async member(admin: KubeClient, m: RealMember): Promise<FleetMemberObject | undefined> {
    const raw = await admin
      .request('GET', HUB_PATHS.fleetMember(m.profile.name), { schema: z.unknown() })
      .catch(() => undefined);
    return raw === undefined ? undefined : readFleetMember(raw);
  }

  /** Polls `check` each second until it holds; past `timeoutMs` from `started`, an error with the agent's log. */
  private async until(
    m: RealMember,
    started: number,
    timeoutMs: number,
    what: string,
    check: () => Promise<boolean>,
  ): Promise<void> {
    while (!(await check())) {
      if (Date.now() - started > timeoutMs || m.agent?.exitCode != null)
        throw new Error(`real agent ${m.profile.name}: not ${what}; its log:\n${m.tail}`);
      await sleep(1000);
    }
  }
}

/** CPU (ms) of `pids` together; a process gone counts 0. */
export function cpuOf(pids: readonly number[]): number {
  return pids.reduce((n, pid) => {
    try {
      return n + cpuMs(pid);
    } catch {
      return n;
    }
  }, 0);
}
