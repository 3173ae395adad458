// Issue 31, High 1, the second half: a helm `--post-renderer` (reached by argv injection, refused
// now by the argv builder: helm-release-name-injection.test.ts) read the agent's git token, webhook
// secret and age key from /proc/<agent pid>/environ, because helm ran beside the agent with its
// identity. Whatever runs in the renderer now (here a hostile helm stand-in, the worst a
// post-renderer could be) finds no secret: no variable, no file, no /proc of the trusted side, no
// network, no signal to it. In both isolation modes this machine can run: `namespaces`, and `uid`
// (as root with user namespaces refused, a laptop or container without them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import inspector from 'node:inspector';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPlatform } from '../../src/render/render-platform.js';
import { probeIsolation } from '../../src/render/sandbox/isolation.js';
import { platformDir } from '../harness/platform-dir.js';
import {
  CHART_FILES,
  CHART_PLATFORM,
  hostileHelm,
  listeningServer,
  plantSecrets,
  type ProbeReport,
} from './renderer-probe.js';

let planted: ReturnType<typeof plantSecrets>;
let server: Awaited<ReturnType<typeof listeningServer>>;
let helm: string;
beforeAll(async () => {
  planted = plantSecrets('post-renderer');
  server = await listeningServer();
  helm = hostileHelm({ planted, trustedPid: process.pid, server });
});
afterAll(() => {
  planted.restore();
  server.close();
});

/** Every file under `dir` (the renderer's cache), read as text. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(readFileSync(path, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

describe.each([
  ['namespaces', {}],
  ['uid (user namespaces refused, as root)', { userNamespaces: false }],
] as const)('a post-renderer in the renderer, in %s mode', (mode, isolation) => {
  it('this machine runs the mode under test', async () => {
    const probes = await probeIsolation(isolation);
    if (mode === 'namespaces') expect(probes.userNamespaces).toBe(true);
    else expect(probes.root && probes.rootNamespaces && !probes.userNamespaces).toBe(true);
  });

  it('finds no planted secret, no /proc of the trusted side, no network, and cannot signal it', async () => {
    const dir = platformDir(CHART_PLATFORM, { files: CHART_FILES });
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-post-renderer-cache-'));
    const results = await renderPlatform(dir, {
      overlay: 'dev',
      domain: 'local',
      isolation,
      cacheDir,
      tools: { helm },
    });
    const probe = results[0]!.manifests.find((m) => m.object.metadata.name === 'probe-report')!.object;
    const report = JSON.parse((probe.data as { report: string }).report) as ProbeReport;
    expect(report.secretsSeen).toEqual([]);
    // The trusted side's PID names no process in the renderer's PID namespace.
    expect(report.parentEnviron).toBe('ENOENT');
    expect(report.signalParent).toBe('ESRCH');
    expect(report.files).toEqual(planted.files.map(() => 'ENOENT'));
    // A network namespace with its loopback down: every address is unreachable.
    expect(report.network.every((r) => r !== 'connected')).toBe(true);
    expect(report.inspector).not.toBe('connected');
    expect(server.connections()).toBe(0);
    expect(inspector.url()).toBeUndefined();
    // A root of its own: none of the machine's home, runtime or state directories.
    expect(report.root).not.toContain('home');
    expect(report.root).not.toContain('run');
    expect(report.root).not.toContain('var');
    if (mode !== 'namespaces') expect(report.uid).toBe(65533);
    // Nothing of a planted value in the answer or in what the renderer left in its cache.
    const everything = [JSON.stringify(results), ...filesUnder(cacheDir)].join('\n');
    for (const value of planted.values) expect(everything).not.toContain(value);
  });
});
