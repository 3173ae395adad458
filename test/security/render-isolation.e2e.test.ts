// Issue 31, end to end through the running agent: "one commit with 1 and 2 produced two ConfigMaps,
// applied by the agent itself, holding its git token, webhook secret and bearer token". Here the
// agent holds planted secrets (GROUNDWORK_GIT_TOKEN, GROUNDWORK_WEBHOOK_SECRET, SOPS_AGE_KEY in its
// environment, a kubeconfig and a git-credentials file), and commits carry both attacks:
// platform code signals the agent (`process._debugProcess`, `process.kill`, errors swallowed) and
// (a) rewrites its chart's release name to `--post-renderer=<script>`, or (b) has its chart
// rendered by a hostile helm (what a post-renderer could be), which reports what it reached.
// In `namespaces` mode, in `uid` mode (user namespaces refused, as root), and with the renderer as
// a process of its own (`--renderer URL`, the renderer pod's layout: an environment with no
// secret; the agent itself refused every local isolation, so nothing renders in its process
// tree): nothing reached, no inspector opened, and no planted value in the cluster, the status,
// the Events, the metrics, the log, the agent's cache or the renderer's log.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { memoryLogger, platformRepo, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, stalledOnSynth, syncStatus } from '../harness/agent-run.js';
import { useCluster } from '../harness/cluster.js';
import { startRendererProcess, type RendererProcess } from '../harness/renderer-process.js';
import {
  CHART_FILES,
  hostileHelm,
  inspectorPortOpen,
  listeningServer,
  plantSecrets,
  type ProbeReport,
} from './renderer-probe.js';

const cluster = useCluster({ namespacePrefix: 'gw-render-iso' });

let planted: ReturnType<typeof plantSecrets>;
let server: Awaited<ReturnType<typeof listeningServer>>;
const saved = {
  helm: process.env.GROUNDWORK_HELM,
  userns: process.env.GROUNDWORK_RENDER_USER_NAMESPACES,
  rootns: process.env.GROUNDWORK_RENDER_ROOT_NAMESPACES,
};
beforeAll(async () => {
  planted = plantSecrets('agent');
  server = await listeningServer();
  // The agent finds helm by GROUNDWORK_HELM: here the hostile stand-in, run inside its renderer.
  process.env.GROUNDWORK_HELM = hostileHelm({ planted, trustedPid: process.pid, server });
});
afterAll(() => {
  planted.restore();
  server.close();
  for (const [key, value] of [
    ['GROUNDWORK_HELM', saved.helm],
    ['GROUNDWORK_RENDER_USER_NAMESPACES', saved.userns],
    ['GROUNDWORK_RENDER_ROOT_NAMESPACES', saved.rootns],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
});

/** Platform code that tries every signal path to the agent, swallowing the guard's refusals. */
const SIGNALS = `for (const attempt of [
  () => process._debugProcess(process.ppid),
  () => process._debugProcess(-process.pid),
  () => process._debugProcess(-1),
  () => process.kill(process.ppid, 'SIGUSR1'),
  () => process.kill(0, 'SIGUSR1'),
  () => process.kill(-1, 'SIGUSR1'),
]) { try { attempt(); } catch {} }
`;

/** The agent's platform with the signal attempts, and one chart whose request `rewrite` may edit. */
const attacking = (rewrite: string) =>
  PLATFORM_MAIN.replace('import { ApiObject,', 'import { HelmChart, ApiObject,')
    .replace('export default definePlatform', `${SIGNALS}export default definePlatform`)
    .replace(
      '    if (v.secret) {',
      `    const chart = new HelmChart(platform, 'web', { chart: 'charts/web', namespace: v.namespace });
    const request = (chart as unknown as Record<symbol, { releaseName: string }>)[Symbol.for('groundwork.RenderRequest')]!;
    ${rewrite}
    if (v.secret) {`,
    );

/** Every file under `dir`, read as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
}

describe.each([
  ['namespaces', undefined],
  ['uid (user namespaces refused, as root)', '0'],
  ['renderer-process (--renderer URL)', 'remote'],
] as const)('the agent renders in %s mode', (_mode, userNamespaces) => {
  it('one commit with both attacks stalls on the builder; one with a hostile chart tool finds nothing; no secret anywhere', async () => {
    const remote = userNamespaces === 'remote';
    if (userNamespaces === undefined) delete process.env.GROUNDWORK_RENDER_USER_NAMESPACES;
    else process.env.GROUNDWORK_RENDER_USER_NAMESPACES = '0';
    // With a renderer, the agent could not render here at all: every render must happen there.
    if (remote) process.env.GROUNDWORK_RENDER_ROOT_NAMESPACES = '0';
    else delete process.env.GROUNDWORK_RENDER_ROOT_NAMESPACES;
    // A process of its own, started with none of this process's variables: only the hostile helm.
    const renderer: RendererProcess | undefined = remote
      ? await startRendererProcess({ GROUNDWORK_HELM: process.env.GROUNDWORK_HELM })
      : undefined;
    const ns = cluster.namespace;
    const repo = await platformRepo(`r${ns.slice(-6)}`);
    const logs = memoryLogger();
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-render-iso-cache-'));
    const options = agentOptions(cluster, repo, {
      log: logs.log,
      debounceMs: 50,
      cacheDir,
      http: { host: '127.0.0.1', port: 0 },
      ...(renderer ? { renderer: renderer.url } : {}),
    });
    const agent = await startAgent(options);
    try {
      const good = await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'good');
      await appliedRevision(cluster, good, 'the good revision applied');

      // Both attacks in one commit: the release name becomes a helm flag, refused before helm runs.
      await repo.publish(
        { namespace: ns, items: { a: '2' } },
        {
          ...CHART_FILES,
          'evil.sh': '#!/bin/sh\ncat\n',
          'platform/main.ts': attacking(
            "request.releaseName = '--post-renderer=' + process.cwd() + '/evil.sh';",
          ),
        },
        'both attacks',
      );
      const stalled = await stalledOnSynth(cluster, 'Stalled on the attacking commit');
      expect(stalled.c.message).toContain('platform/web');
      expect(stalled.c.message).toContain('releaseName');
      expect(stalled.s.lastAppliedRevision).toBe(`main@sha1:${good}`);

      // The same signals, and a chart the hostile helm renders inside the renderer: applied.
      const probed = await repo.publish(
        { namespace: ns, items: { a: '3' } },
        { ...CHART_FILES, 'platform/main.ts': attacking('') },
        'a hostile chart tool',
      );
      await appliedRevision(cluster, probed, 'the probed revision applied');
      const probe = await cluster.client.request<{ data: { report: string } }>(
        'GET',
        `/api/v1/namespaces/${ns}/configmaps/probe-report`,
      );
      const report = JSON.parse(probe.data.report) as ProbeReport;
      expect(report.secretsSeen).toEqual([]);
      if (userNamespaces === '0') expect(report.uid).toBe(65533); // the render user, not root
      expect(report.parentEnviron).toBe('ENOENT');
      expect(report.signalParent).toBe('ESRCH');
      expect(report.files).toEqual(planted.files.map(() => 'ENOENT'));
      expect(report.network.every((r) => r !== 'connected')).toBe(true);
      expect(server.connections()).toBe(0);
      expect(inspector.url()).toBeUndefined();
      expect(await inspectorPortOpen()).toBe(false);

      const metrics = await (await fetch(`http://127.0.0.1:${agent.port}/metrics`)).text();
      const everything = [
        JSON.stringify(await syncStatus(cluster)),
        JSON.stringify(await cluster.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`)),
        JSON.stringify(await cluster.client.request('GET', `/api/v1/namespaces/${ns}/configmaps`)),
        metrics,
        logs.text(),
        ...filesUnder(cacheDir),
      ].join('\n');
      expect(metrics).toContain('groundwork_');
      for (const value of planted.values) expect(everything).not.toContain(value);
      if (renderer) {
        expect(renderer.log()).toContain('rendered a agent request');
        for (const value of planted.values) expect(renderer.log()).not.toContain(value);
        // The renderer gone, a commit that drops the chart fails at render: nothing pruned.
        await renderer.stop();
        await repo.publish({ namespace: ns, items: { a: '4' } }, {}, 'no renderer');
        const down = await stalledOnSynth(cluster, 'Stalled without the renderer');
        expect(down.c.message).toMatch(
          / renderer 127\.0\.0\.1:\d+: it cannot be reached .*; nothing was rendered/,
        );
        expect(down.s.lastAppliedRevision).toBe(`main@sha1:${probed}`);
        await cluster.client.request('GET', `/api/v1/namespaces/${ns}/configmaps/probe-report`);
      }
    } finally {
      await agent.stop();
      await repo.stop();
      await renderer?.stop();
    }
  });
});
