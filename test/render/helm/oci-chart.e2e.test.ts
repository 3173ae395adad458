// Charts in a real OCI registry (Debian's docker-registry, distribution 2.8, on loopback), pushed
// with the real `helm push`: locked by manifest digest, rendered as helm template renders them,
// offline from the cache, and a tag pushed again with other bytes never rendered in place of the
// locked manifest.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import jsyaml from 'js-yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import type { SynthValidationError } from '../../../src/render/synth/validation.js';
import { listChartVersions } from '../../../src/propose/chart-versions.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { groundwork } from '../../harness/cli.js';
import { startOciRegistry, type OciRegistry } from '../../harness/oci-registry.js';
import { byKindAndName, helmTemplate } from '../../harness/helm-template.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm');

const run = promisify(execFile);
const CHARTS = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

let helm: string;
let tools: RenderTools;
/** `helm package` of the fixture subchart, and of a copy with other values under the same version. */
let original: string;
let repushed: string;
const registries: OciRegistry[] = [];
const savedCache = process.env.GROUNDWORK_CACHE_DIR;

beforeAll(async () => {
  helm = await toolPath('helm');
  tools = { helm: async () => helm, kustomize: () => toolPath('kustomize') };
  const out = mkdtempSync(join(tmpdir(), 'gw-oci-charts-'));
  const env = { PATH: '/usr/bin:/bin', HOME: out };
  await run(helm, ['package', join(CHARTS, 'subchart'), '--destination', join(out, 'a')], { env });
  original = join(out, 'a', 'subchart-0.1.0.tgz');
  const copy = join(out, 'changed');
  cpSync(join(CHARTS, 'subchart'), copy, { recursive: true });
  const values = readFileSync(join(copy, 'values.yaml'), 'utf8');
  writeFileSync(join(copy, 'values.yaml'), values.replace('externalPort: 80', 'externalPort: 8080'));
  await run(helm, ['package', copy, '--destination', join(out, 'b')], { env });
  repushed = join(out, 'b', 'subchart-0.1.0.tgz');
});

afterEach(() => {
  process.env.GROUNDWORK_CACHE_DIR = savedCache;
  if (savedCache === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
});

afterAll(async () => {
  for (const r of registries) await r.remove();
});

async function registry(opts: { tokenAuth?: boolean } = {}): Promise<OciRegistry> {
  const r = await startOciRegistry(opts);
  registries.push(r);
  return r;
}

/** A fresh, empty cache for this process and the CLI runs: nothing fetched yet. */
function freshCache(): string {
  const cache = mkdtempSync(join(tmpdir(), 'gw-oci-cache-'));
  process.env.GROUNDWORK_CACHE_DIR = cache;
  return cache;
}

function platform(body: string, imports = ''): string {
  return platformDir(`import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
${imports}
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    ${body}
  },
});
`);
}

const sha256 = (file: string) => `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;

function lockOf(dir: string) {
  return jsyaml.load(readFileSync(join(dir, 'groundwork-charts.lock.yaml'), 'utf8')) as {
    charts: Record<string, string>[];
  };
}

function servicePort(manifests: { source: string; object: unknown }[], source: string): unknown {
  const svc = manifests.find(
    (m) =>
      m.source === source &&
      (m.object as { kind: string; metadata: { name: string } }).kind === 'Service' &&
      (m.object as { metadata: { name: string } }).metadata.name === 'subchart',
  );
  return (svc?.object as { spec?: { ports?: { port?: unknown }[] } } | undefined)?.spec?.ports?.[0]?.port;
}

describe('charts from an OCI registry', () => {
  it('chart lock pins the manifest digest helm push printed; synth renders what helm template renders, then offline from the cache', async () => {
    const reg = await registry();
    const manifestDigest = await reg.pushChart(original, 'charts');
    const cache = freshCache();
    // The three spellings: helm's oci:// chart, Flux's repo + name, and cdk8s's Helm.
    const dir = platform(
      `new HelmChart(platform, 'sub', { chart: '${reg.url}/charts/subchart', version: '0.1.0', namespace: 'demo' });
    new HelmChart(platform, 'flux', { repo: '${reg.url}/charts', chart: 'subchart', version: '0.1.0', namespace: 'other', includeCrds: false });
    new Helm(platform, 'cdk', { chart: '${reg.url}/charts/subchart', version: '0.1.0', namespace: 'third', helmFlags: ['--skip-tests'] });`,
      `import { Helm } from 'cdk8s';`,
    );

    const unlocked = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(unlocked.issues.map((i) => i.path).sort()).toEqual([
      'platform/cdk',
      'platform/flux',
      'platform/sub',
    ]);
    expect(unlocked.issues[0]!.message).toContain(
      `subchart 0.1.0 of ${reg.url}/charts is not in groundwork-charts.lock.yaml`,
    );

    const lock = await groundwork(['chart', 'lock', '--dir', dir], { env: { GROUNDWORK_CACHE_DIR: cache } });
    expect(lock.stderr).toBe('');
    expect(lock.code).toBe(0);
    expect(lockOf(dir).charts).toEqual([
      {
        repo: `${reg.url}/charts`,
        name: 'subchart',
        version: '0.1.0',
        url: `${reg.url}/charts/subchart@${manifestDigest}`,
        digest: sha256(original),
        manifestDigest,
      },
    ]);

    // Fetched once by chart lock, into the cache by digest.
    expect(readFileSync(join(cache, 'charts', `${sha256(original).replace(':', '-')}.tgz`))).toEqual(
      readFileSync(original),
    );

    const [online] = await childSynth(dir, { renderTools: tools });
    expect(online!.charts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'platform/sub',
          chart: 'subchart',
          repo: `${reg.url}/charts`,
          version: '0.1.0',
        }),
      ]),
    );
    const fromChart = online!.manifests.filter((m) => m.source === 'platform/sub').map((m) => m.object);
    // The same chart pulled and rendered by helm itself from the registry.
    const { objects: expected } = await helmTemplate(helm, 'sub', `${reg.url}/charts/subchart`, {
      namespace: 'demo',
      args: ['--version', '0.1.0', '--plain-http'],
    });
    expect(fromChart.length).toBeGreaterThan(5);
    expect(fromChart.sort(byKindAndName)).toEqual(expected.sort(byKindAndName));
    expect(servicePort(online!.manifests, 'platform/flux')).toBe(80);
    expect(servicePort(online!.manifests, 'platform/cdk')).toBe(80);

    // The registry goes away and no render is cached: the archive cached by digest still renders.
    await reg.stop();
    rmSync(join(cache, 'renders'), { recursive: true, force: true });
    const [offline] = await childSynth(dir, { renderTools: tools });
    expect(offline!.hash).toBe(online!.hash);
  });

  it('a tag pushed again with other bytes: synth keeps the locked manifest; once the registry drops it, synth refuses naming where the tag points; chart update locks the new one', async () => {
    const reg = await registry();
    const first = await reg.pushChart(original, 'charts');
    freshCache();
    const dir = platform(
      `new HelmChart(platform, 'sub', { repo: '${reg.url}/charts', chart: 'subchart', version: '0.1.0', namespace: 'demo' });`,
    );
    const env = () => ({ GROUNDWORK_CACHE_DIR: process.env.GROUNDWORK_CACHE_DIR });
    expect((await groundwork(['chart', 'lock', '--dir', dir], { env: env() })).code).toBe(0);

    const second = await reg.pushChart(repushed, 'charts');
    expect(second).not.toBe(first);
    // Nothing cached: fetched by the locked digest, not by the tag.
    freshCache();
    const [kept] = await childSynth(dir, { renderTools: tools });
    expect(servicePort(kept!.manifests, 'platform/sub')).toBe(80);

    await reg.deleteManifest('charts/subchart', first);
    freshCache();
    const stale = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(stale.issues[0]).toMatchObject({ path: 'platform/sub', field: 'repo' });
    expect(stale.issues[0]!.message).toContain(
      `the locked manifest ${first} is no longer in the registry; the tag 0.1.0 now points to ${second}`,
    );
    expect(stale.issues[0]!.fix).toContain('groundwork chart update');

    // lock keeps what is locked; update takes the tag's new manifest.
    const relock = await groundwork(['chart', 'lock', '--dir', dir], { env: env() });
    expect(relock.stdout).toContain('locked subchart 0.1.0');
    expect(lockOf(dir).charts[0]!.manifestDigest).toBe(first);
    const update = await groundwork(['chart', 'update', '--dir', dir], { env: env() });
    expect(update.code).toBe(0);
    expect(lockOf(dir).charts[0]).toMatchObject({ manifestDigest: second, digest: sha256(repushed) });
    const [updated] = await childSynth(dir, { renderTools: tools });
    expect(servicePort(updated!.manifests, 'platform/sub')).toBe(8080);
  });

  it("propose reads a real registry's tag list: every version helm pushed, build metadata as helm writes it (+ as _)", async () => {
    const reg = await registry();
    const out = mkdtempSync(join(tmpdir(), 'gw-oci-versions-'));
    const env = { PATH: '/usr/bin:/bin', HOME: out };
    for (const version of ['0.1.0', '0.1.1', '0.2.0+build.1']) {
      await run(helm, ['package', join(CHARTS, 'subchart'), '--version', version, '--destination', out], {
        env,
      });
      await reg.pushChart(join(out, `subchart-${version}.tgz`), 'charts');
    }
    const key = { repo: `${reg.url}/charts`, name: 'subchart' };
    // Distribution 2.8 answers one page whatever `n` asks (tag paging came in v3): the paging
    // itself is test/propose/oci-tag-pages.test.ts and test/security/oci-tag-link-hostile.test.ts.
    const versions = (await listChartVersions(key)).map((v) => v.version).sort();
    expect(versions).toEqual(['0.1.0', '0.1.1', '0.2.0+build.1']);
  });

  it('a registry with the anonymous token challenge (distribution token auth, as ghcr.io, quay.io and Docker Hub use): lock and synth ask for a pull token without credentials; a private repository is said to be one', async () => {
    const reg = await registry({ tokenAuth: true });
    const manifestDigest = await reg.pushChart(original, 'charts');
    const before = reg.tokenRequests.length;
    const cache = freshCache();
    const dir = platform(
      `new HelmChart(platform, 'sub', { chart: '${reg.url}/charts/subchart', version: '0.1.0', namespace: 'demo' });`,
    );
    const lock = await groundwork(['chart', 'lock', '--dir', dir], { env: { GROUNDWORK_CACHE_DIR: cache } });
    expect(lock.stderr).toBe('');
    expect(lock.code).toBe(0);
    expect(lockOf(dir).charts[0]!.manifestDigest).toBe(manifestDigest);
    expect(reg.tokenRequests.slice(before)).toEqual([
      { service: 'gw-registry', scopes: ['repository:charts/subchart:pull'], authorization: false },
    ]);

    freshCache();
    const [result] = await childSynth(dir, { renderTools: tools });
    expect(servicePort(result!.manifests, 'platform/sub')).toBe(80);
    expect(reg.tokenRequests.slice(before + 1)).toEqual([
      { service: 'gw-registry', scopes: ['repository:charts/subchart:pull'], authorization: false },
    ]);

    const secret = platform(
      `new HelmChart(platform, 'p', { chart: '${reg.url}/private/chart', version: '1.0.0' });`,
    );
    const refused = await groundwork(['chart', 'lock', '--dir', secret], {
      env: { GROUNDWORK_CACHE_DIR: cache },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /the registry refused an anonymous token for private\/chart \(HTTP 401 from 127\.0\.0\.1:\d+\): the repository is private or does not exist/,
    );
    expect(refused.stderr).not.toContain('DENIED');
  });

  it('chart lock of a version the registry lacks, or of a repo that repeats the chart name, exits 2 with the cause and the fix', async () => {
    const reg = await registry();
    await reg.pushChart(original, 'charts');
    const cache = freshCache();
    const missing = platform(
      `new HelmChart(platform, 'sub', { chart: '${reg.url}/charts/subchart', version: '9.9.9' });`,
    );
    const noVersion = await groundwork(['chart', 'lock', '--dir', missing], {
      env: { GROUNDWORK_CACHE_DIR: cache },
    });
    expect(noVersion.code).toBe(2);
    expect(noVersion.stderr).toContain(
      `chart subchart 9.9.9 of ${reg.url}/charts: the registry has no tag 9.9.9`,
    );

    // Flux users' mistake (fluxcd/flux2#3438): the repository URL already ends in the chart's name.
    const doubled = platform(
      `new HelmChart(platform, 'sub', { repo: '${reg.url}/charts/subchart', chart: 'subchart', version: '0.1.0' });`,
    );
    const twice = await groundwork(['chart', 'lock', '--dir', doubled], {
      env: { GROUNDWORK_CACHE_DIR: cache },
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`repo ends in the chart's name: repo is the parent (${reg.url}/charts)`);
  });
});
