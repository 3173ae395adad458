// A remote chart from an HTTP chart repository on loopback (index.yaml and a .tgz made by the real
// helm package): locked by digest, rendered from the cache offline, and refused when its bytes change.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import type { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { serveChartRepository, type ChartRepositoryServer } from '../../harness/chart-repository-server.js';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm');

const run = promisify(execFile);
const CHARTS = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

let tools: RenderTools;
let server: ChartRepositoryServer;
let repo: string;
/** What the repository serves at /subchart-0.1.0.tgz (the test swaps it). */
let archive: Buffer;
let original: Buffer;
let indexYaml: string;
const savedCache = process.env.GROUNDWORK_CACHE_DIR;

beforeAll(async () => {
  const helm = await toolPath('helm');
  tools = { helm: async () => helm, kustomize: () => toolPath('kustomize') };
  const out = mkdtempSync(join(tmpdir(), 'gw-chart-repo-'));
  await run(helm, ['package', join(CHARTS, 'subchart'), '--destination', out], {
    env: { PATH: '/usr/bin:/bin', HOME: out },
  });
  original = archive = readFileSync(join(out, 'subchart-0.1.0.tgz'));
  const digest = createHash('sha256').update(original).digest('hex');
  indexYaml = `apiVersion: v1\nentries:\n  subchart:\n    - name: subchart\n      version: 0.1.0\n      digest: ${digest}\n      urls:\n        - subchart-0.1.0.tgz\n`;
  server = await serveChartRepository({
    'index.yaml': () => indexYaml,
    'subchart-0.1.0.tgz': () => archive,
  });
  repo = server.url;
});

afterAll(async () => {
  process.env.GROUNDWORK_CACHE_DIR = savedCache;
  if (savedCache === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
  await server.close();
});

function remotePlatform(version = '0.1.0'): string {
  return platformDir(`import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'sub', { repo: '${repo}', chart: 'subchart', version: '${version}', namespace: 'demo' });
  },
});
`);
}

describe('charts from an HTTP chart repository', () => {
  it('needs a lock; groundwork chart lock pins the digest; synth then renders the archive, offline from the cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'gw-chart-cache-'));
    process.env.GROUNDWORK_CACHE_DIR = cache;
    const dir = remotePlatform();

    const unlocked = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(unlocked.issues[0]).toMatchObject({ path: 'platform/sub', field: 'version' });
    expect(unlocked.issues[0]!.message).toContain('is not in groundwork-charts.lock.yaml');
    expect(unlocked.issues[0]!.fix).toContain('groundwork chart lock');

    const lock = await groundwork(['chart', 'lock', '--dir', dir], { env: { GROUNDWORK_CACHE_DIR: cache } });
    expect(lock.stderr).toBe('');
    expect(lock.code).toBe(0);
    const lockFile = readFileSync(join(dir, 'groundwork-charts.lock.yaml'), 'utf8');
    expect(lockFile).toContain(`digest: sha256:${createHash('sha256').update(original).digest('hex')}`);
    expect(lockFile).toContain(`url: ${repo}/subchart-0.1.0.tgz`);

    const [online] = await childSynth(dir, { renderTools: tools });
    const names = online!.manifests.filter((m) => m.source === 'platform/sub').map((m) => m.id);
    expect(names).toEqual(expect.arrayContaining(['demo_subcharta__Service', 'demo_subchart__Service']));

    // The repository goes away: the cached archive (by digest) still renders.
    archive = Buffer.from('gone');
    indexYaml = 'entries: {}\n';
    const [offline] = await childSynth(dir, { renderTools: tools });
    expect(offline!.hash).toBe(online!.hash);
  });

  it('an archive whose bytes changed under its URL is refused (digest mismatch), without a cached copy', async () => {
    process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-chart-cache-'));
    const dir = remotePlatform();
    archive = original;
    indexYaml = `apiVersion: v1\nentries:\n  subchart:\n    - version: 0.1.0\n      urls: [subchart-0.1.0.tgz]\n`;
    expect(
      (
        await groundwork(['chart', 'lock', '--dir', dir], {
          env: { GROUNDWORK_CACHE_DIR: process.env.GROUNDWORK_CACHE_DIR },
        })
      ).code,
    ).toBe(0);
    process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-chart-cache-'));
    archive = Buffer.concat([original, Buffer.from([0])]);
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/sub', field: 'repo' });
    expect(err.issues[0]!.message).toMatch(/has digest sha256:[0-9a-f]{64}, not the locked sha256:/);
    archive = original;
  });

  it('a chart from a repository needs an exact version', async () => {
    const err = (await childSynthError(remotePlatform('^0.1.0'), {
      renderTools: tools,
    })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/sub', field: 'version' });
    expect(err.issues[0]!.message).toMatch(/exact version/);
  });
});
