import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { readChartLock } from '../../../src/render/helm/chart-lock.js';
import { HelmChart } from '../../../src/render/helm/helm-chart.js';
import { parseChallenge, realmProblem, tokenUrl } from '../../../src/render/helm/oci-auth.js';
import { ociTag, parseOciChart } from '../../../src/render/helm/oci-reference.js';
import { recordedRenders } from '../../../src/render/recorded/recorded.js';
import { Platform } from '../../../src/render/synth/platform.js';
import { Validation } from '../../../src/render/synth/validation.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('parseOciChart', () => {
  it('reads helm spelling and Flux spelling into the same repo and name; https, http only on loopback', () => {
    const helm = parseOciChart({ chart: 'oci://ghcr.io/stefanprodan/charts/podinfo' });
    const flux = parseOciChart({ repo: 'oci://ghcr.io/stefanprodan/charts/', chart: 'podinfo' });
    expect(helm).toEqual({
      repo: 'oci://ghcr.io/stefanprodan/charts',
      name: 'podinfo',
      registry: 'ghcr.io',
      repository: 'stefanprodan/charts/podinfo',
      scheme: 'https:',
    });
    expect(flux).toEqual(helm);
    expect(parseOciChart({ chart: 'oci://registry-1.docker.io/bitnamicharts/nginx' })).toMatchObject({
      repository: 'bitnamicharts/nginx',
      scheme: 'https:',
    });
    expect(parseOciChart({ repo: 'oci://127.0.0.1:5000', chart: 'x' })).toMatchObject({
      repo: 'oci://127.0.0.1:5000',
      repository: 'x',
      scheme: 'http:',
    });
    expect(parseOciChart({ chart: 'oci://localhost:5000/a/b' })).toMatchObject({ scheme: 'http:' });
    expect(parseOciChart({ chart: 'oci://[::1]:5000/a/b' })).toMatchObject({
      scheme: 'http:',
      registry: '[::1]:5000',
    });
    // A host that merely starts like loopback is not loopback.
    expect(parseOciChart({ chart: 'oci://127.0.0.1.evil.example/a/b' })).toMatchObject({ scheme: 'https:' });
  });

  it.each([
    ['oci://user:pw@ghcr.io/org/chart', /must not hold credentials/],
    ['oci://token@ghcr.io/org/chart', /must not hold credentials/],
    ['oci://ghcr.io/org/chart?x=1', /query or fragment/],
    ['oci://ghcr.io/org/chart#frag', /query or fragment/],
    ['oci://ghcr.io/org/chart:1.0.0', /must not carry a tag or digest/],
    [`oci://ghcr.io/org/chart@sha256:${'a'.repeat(64)}`, /must not carry a tag or digest/],
    ['oci://ghcr.io/org/../../etc/passwd', /not an OCI repository name/],
    ['oci://ghcr.io/org/./chart', /not an OCI repository name/],
    ['oci://ghcr.io/org//chart', /not an OCI repository name/],
    ['oci://ghcr.io/org/%2e%2e/chart', /not an OCI repository name/],
    ['oci://ghcr.io/Org/Chart', /not an OCI repository name/],
    ['oci://ghcr.io/org/chart\n', /not an OCI repository name/],
    ['oci://ghcr.io', /not an OCI repository name/],
    ['oci://ghcr.io/', /not an OCI repository name/],
    ['oci:///org/chart', /no valid registry host \(it is empty\)/],
    ['oci://gh cr.io/org/chart', /no valid registry host/],
    ['oci://ghcr.io:99999/org/chart', /no valid registry host/],
    ['OCI://ghcr.io/org/chart', /must be written oci:\/\//],
    [`oci://ghcr.io/${'a/'.repeat(130)}chart`, /longer than 255/],
  ])('refuses %j', (chart, message) => {
    const parsed = parseOciChart({ chart });
    expect(parsed).toHaveProperty('problem');
    expect((parsed as { problem: string }).problem).toMatch(message);
    expect(parsed).toHaveProperty('fix');
  });

  it('refuses a chart name that is a path with an oci:// repo', () => {
    expect(parseOciChart({ repo: 'oci://ghcr.io/org', chart: '../other/chart' })).toMatchObject({
      problem: expect.stringMatching(/chart is the chart name/),
    });
  });

  it('tags a version as helm push does: + becomes _', () => {
    expect(ociTag('1.2.3+build.4')).toBe('1.2.3_build.4');
    expect(ociTag('1.2.3')).toBe('1.2.3');
  });
});

describe('the anonymous bearer challenge', () => {
  it('parses the challenge registries send, quoted commas and escapes included', () => {
    expect(
      parseChallenge(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:bitnamicharts/nginx:pull,push"',
      ),
    ).toEqual({
      scheme: 'bearer',
      params: {
        realm: 'https://auth.docker.io/token',
        service: 'registry.docker.io',
        scope: 'repository:bitnamicharts/nginx:pull,push',
      },
    });
    expect(parseChallenge('Basic realm="a \\"b\\""')).toEqual({
      scheme: 'basic',
      params: { realm: 'a "b"' },
    });
    expect(parseChallenge('')).toBeUndefined();
    expect(parseChallenge(null)).toBeUndefined();
  });

  it.each([
    ['https://ghcr.io/token', 'ghcr.io', undefined],
    ['https://quay.io/v2/auth', 'quay.io', undefined],
    ['https://auth.docker.io/token', 'registry-1.docker.io', undefined],
    ['https://public.ecr.aws/token/', 'public.ecr.aws', undefined],
    ['http://127.0.0.1:9000/token', '127.0.0.1:5000', undefined],
    ['https://evil.io/token', 'ghcr.io', /another host \(evil\.io\)/],
    ['https://ghcr.io.evil.example/token', 'ghcr.io', /another host/],
    ['https://evil.docker.io.example/token', 'registry-1.docker.io', /another host/],
    ['https://169.254.169.254/token', '10.0.0.5:5000', /another host/],
    ['https://10.0.0.6/token', '10.0.0.5', /another host/],
    ['http://ghcr.io/token', 'ghcr.io', /not https/],
    ['http://127.0.0.1/token', 'ghcr.io', /not https/],
    ['gopher://ghcr.io/token', 'ghcr.io', /not https/],
    ['not a url', 'ghcr.io', /not a URL/],
    ['https://u:p@ghcr.io/token', 'ghcr.io', /holds credentials/],
  ])('realm %s for registry %s', (realm, registry, problem) => {
    const found = realmProblem(realm, registry);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it("asks for the challenge's service and scope, else pull of the repository", () => {
    const url = tokenUrl({ scheme: 'bearer', params: { realm: 'https://ghcr.io/token?x=1' } }, 'org/chart');
    expect(url.href).toBe('https://ghcr.io/token?x=1&scope=repository%3Aorg%2Fchart%3Apull');
  });
});

describe('HelmChart with an OCI chart', () => {
  function record(props: Record<string, unknown>) {
    const app = new App();
    new HelmChart(new Platform(app, 'platform', { openshiftVersion: '4.16' }), 'c', props as never);
    return { issues: Validation.all(app), renders: recordedRenders(app) };
  }

  it('records both spellings as the parent repo and the chart name', () => {
    const a = record({ chart: 'oci://ghcr.io/org/charts/podinfo', version: '6.7.1' });
    const b = record({ repo: 'oci://ghcr.io/org/charts', chart: 'podinfo', version: '6.7.1' });
    expect(a.issues).toEqual([]);
    expect(a.renders[0]).toMatchObject({
      repo: 'oci://ghcr.io/org/charts',
      chart: 'podinfo',
      version: '6.7.1',
    });
    expect(b.renders).toEqual(a.renders);
  });

  it.each([
    [{ chart: 'oci://ghcr.io/org/podinfo' }, 'version', /exact version/],
    [{ chart: 'oci://ghcr.io/org/podinfo', version: '>=6.0.0' }, 'version', /exact version/],
    [{ chart: 'oci://user:pw@ghcr.io/org/podinfo', version: '1.0.0' }, 'chart', /credentials/],
    [{ chart: 'oci://ghcr.io/org/../podinfo', version: '1.0.0' }, 'chart', /not an OCI repository name/],
    [{ chart: 'oci://ghcr.io/org/podinfo:1.0.0', version: '1.0.0' }, 'chart', /tag or digest/],
    [{ repo: 'oci://ghcr.io/org?x', chart: 'podinfo', version: '1.0.0' }, 'repo', /query or fragment/],
    [{ repo: 'oci://ghcr.io/org', chart: 'a/b', version: '1.0.0' }, 'chart', /chart is the chart name/],
    [
      { repo: 'oci://ghcr.io/org', chart: 'oci://ghcr.io/org/x', version: '1.0.0' },
      'chart',
      /not another oci/,
    ],
    [
      { repo: 'https://charts.example.com', chart: 'oci://ghcr.io/org/x', version: '1.0.0' },
      'chart',
      /no http\(s\) repo/,
    ],
    [{ repo: 'ghcr.io/org', chart: 'x', version: '1.0.0' }, 'repo', /oci:\/\/ registry path/],
  ])('refuses %j on %s, recording nothing', (props, field, message) => {
    const { issues, renders } = record(props);
    expect(issues).toEqual([expect.objectContaining({ path: 'platform/c', field, severity: 'error' })]);
    expect(issues[0]!.message).toMatch(message);
    expect(renders).toEqual([]);
  });
});

describe('the lock entry of an OCI chart', () => {
  const d = (c: string) => `sha256:${c.repeat(64)}`;
  function lockDir(entry: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'gw-oci-lock-'));
    const fields = Object.entries(entry)
      .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
      .join('\n')
      .replace(/^ {4}/, '  - ');
    writeFileSync(
      join(dir, 'groundwork-charts.lock.yaml'),
      `apiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n${fields}\n`,
    );
    return dir;
  }
  const entry = {
    repo: 'oci://ghcr.io/org/charts',
    name: 'podinfo',
    version: '6.7.1',
    url: `oci://ghcr.io/org/charts/podinfo@${d('b')}`,
    digest: d('a'),
    manifestDigest: d('b'),
  };

  it('reads one with its manifest digest', async () => {
    expect((await readChartLock(lockDir(entry))).charts).toEqual([entry]);
  });

  it('refuses an OCI entry without a manifest digest, and an HTTP entry with one', async () => {
    const { manifestDigest: _, ...withoutManifest } = entry;
    await expect(readChartLock(lockDir(withoutManifest))).rejects.toThrow(/manifestDigest/);
    await expect(
      readChartLock(
        lockDir({ ...entry, repo: 'https://charts.example.com', url: 'https://charts.example.com/p.tgz' }),
      ),
    ).rejects.toThrow(/manifestDigest/);
    await expect(readChartLock(lockDir({ ...entry, manifestDigest: 'sha256:short' }))).rejects.toThrow(
      /manifestDigest/,
    );
  });
});
