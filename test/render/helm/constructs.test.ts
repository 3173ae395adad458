import { App, Names } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { defineCdk8sHelm, readHelmFlags } from '../../../src/render/helm/cdk8s-helm.js';
import { HelmChart } from '../../../src/render/helm/helm-chart.js';
import { kubeVersionOfOpenShift } from '../../../src/render/helm/kube-version.js';
import { Kustomization } from '../../../src/render/kustomize/kustomization.js';
import { recordedRenders } from '../../../src/render/recorded/recorded.js';
import { Platform } from '../../../src/render/synth/platform.js';
import { Validation } from '../../../src/render/synth/validation.js';

function platform(openshiftVersion = '4.16') {
  const app = new App();
  return { app, platform: new Platform(app, 'platform', { openshiftVersion }) };
}

describe('HelmChart records what to render', () => {
  it('records the chart with its defaults: release name from the id, CRDs in, tests out, kube version from openshiftVersion', () => {
    const { app, platform: p } = platform('4.16');
    new HelmChart(p, 'ingress', {
      chart: 'charts/ingress',
      values: { replicas: 2, nested: { a: [1, 'x'] } },
    });
    expect(recordedRenders(app)).toEqual([
      {
        engine: 'helm',
        path: 'platform/ingress',
        chart: 'charts/ingress',
        releaseName: 'ingress',
        values: { replicas: 2, nested: { a: [1, 'x'] } },
        valuesFiles: [],
        includeCrds: true,
        includeTests: false,
        apiVersions: [],
        ignoreDifferences: [],
        kubeVersion: 'v1.29.0',
      },
    ]);
    expect(Validation.all(app)).toEqual([]);
  });

  it('passes every prop on', () => {
    const { app, platform: p } = platform();
    const chart = new HelmChart(p, 'db', {
      chart: 'vendor/mariadb',
      version: '7.3.14',
      releaseName: 'maria',
      namespace: 'data',
      valuesFiles: ['values/db.yaml'],
      includeCrds: false,
      skipTests: false,
      apiVersions: ['monitoring.coreos.com/v1'],
      kubeVersion: '1.30.2',
      ignoreDifferences: [{ kind: 'Secret', name: 'maria', pointers: ['/data/password'] }],
    });
    expect(chart.releaseName).toBe('maria');
    expect(recordedRenders(app)[0]).toMatchObject({
      version: '7.3.14',
      releaseName: 'maria',
      namespace: 'data',
      valuesFiles: ['values/db.yaml'],
      includeCrds: false,
      includeTests: true,
      apiVersions: ['monitoring.coreos.com/v1'],
      kubeVersion: 'v1.30.2',
      ignoreDifferences: [{ kind: 'Secret', name: 'maria', pointers: ['/data/password'] }],
    });
  });

  it.each([
    [{ chart: 'https://charts.example.com/ingress-1.0.0.tgz' }, 'chart', /URL/],
    [{ chart: 'oci://registry.example.com/ingress' }, 'version', /exact version/],
    [{ chart: '/etc' }, 'chart', /relative/],
    [{ chart: 'c', valuesFiles: ['/etc/passwd'] }, 'valuesFiles[0]', /relative/],
    [{ chart: 'c', releaseName: 'Not_A_Label' }, 'releaseName', /DNS label/],
    [{ chart: 'c', values: { when: new Date(0) } }, 'values', /JSON data/],
    [{ chart: 'c', values: { n: Number.NaN } }, 'values', /JSON data/],
    [{ chart: 'c', kubeVersion: 'latest' }, 'kubeVersion', /1\.29/],
    [
      { chart: 'c', ignoreDifferences: [{ kind: 'Secret', pointers: ['data'] }] },
      'ignoreDifferences[0].pointers[0]',
      /JSON pointer/,
    ],
  ])('refuses %j as a validation issue on the construct (%s), recording nothing', (props, field, message) => {
    const { app, platform: p } = platform();
    new HelmChart(p, 'bad', props as never);
    const issues = Validation.all(app);
    expect(issues).toEqual([expect.objectContaining({ path: 'platform/bad', field, severity: 'error' })]);
    expect(issues[0]!.message).toMatch(message);
    expect(recordedRenders(app)).toEqual([]);
  });

  it('records a chart of a repository by name, repository and exact version', () => {
    const { app, platform: p } = platform();
    new HelmChart(p, 'ingress', {
      repo: 'https://charts.example.com',
      chart: 'ingress-nginx',
      version: '4.11.3',
    });
    expect(recordedRenders(app)[0]).toMatchObject({
      repo: 'https://charts.example.com',
      chart: 'ingress-nginx',
      version: '4.11.3',
    });
  });

  it.each([
    [{ repo: 'https://charts.example.com', chart: 'ingress' }, 'version'],
    [{ repo: 'https://charts.example.com', chart: 'ingress', version: '^4.0.0' }, 'version'],
    [{ repo: 'https://charts.example.com', chart: 'charts/ingress', version: '4.0.0' }, 'chart'],
    [{ repo: 'https://user:pw@charts.example.com', chart: 'ingress', version: '4.0.0' }, 'repo'],
    [{ repo: 'oci://user:pw@registry.example.com/charts', chart: 'ingress', version: '4.0.0' }, 'repo'],
  ])('refuses the remote chart %j (%s)', (props, field) => {
    const { app, platform: p } = platform();
    new HelmChart(p, 'bad', props);
    expect(Validation.all(app)).toEqual([expect.objectContaining({ path: 'platform/bad', field })]);
    expect(recordedRenders(app)).toEqual([]);
  });

  it('refuses a construct id that is no release name, with the fix to set one', () => {
    const { app, platform: p } = platform();
    new HelmChart(p, 'My_Chart', { chart: 'c' });
    expect(Validation.all(app)).toEqual([
      expect.objectContaining({
        path: 'platform/My_Chart',
        field: 'releaseName',
        fix: expect.stringContaining('releaseName'),
      }),
    ]);
    expect(recordedRenders(app)).toEqual([]);
  });

  it('outside a Platform leaves the kube version to helm', () => {
    const app = new App();
    new HelmChart(app, 'c', { chart: 'c' });
    expect(recordedRenders(app)[0]).not.toHaveProperty('kubeVersion');
  });

  it('maps OpenShift minors to their Kubernetes version', () => {
    expect([14, 16, 18].map(kubeVersionOfOpenShift)).toEqual(['v1.27.0', 'v1.29.0', 'v1.31.0']);
  });
});

describe('Kustomization records its directory', () => {
  it('records a directory of the repository', () => {
    const { app, platform: p } = platform();
    new Kustomization(p, 'monitoring', { dir: 'deploy/overlays/prod' });
    expect(recordedRenders(app)).toEqual([
      { engine: 'kustomize', path: 'platform/monitoring', dir: 'deploy/overlays/prod' },
    ]);
  });

  it.each(['https://github.com/org/repo//deploy?ref=v1', '/etc/kubernetes'])('refuses %s', (dir) => {
    const { app, platform: p } = platform();
    new Kustomization(p, 'k', { dir });
    expect(Validation.all(app)).toEqual([expect.objectContaining({ path: 'platform/k', field: 'dir' })]);
    expect(recordedRenders(app)).toEqual([]);
  });
});

describe("cdk8s Helm's helmFlags", () => {
  it('reads the flags that mean something without a cluster, in both spellings', () => {
    expect(
      readHelmFlags([
        '--include-crds',
        '--skip-tests',
        '--api-versions',
        'a/v1,b/v1',
        '-a=c/v1',
        '--kube-version=1.30.0',
        '-f',
        'x.yaml',
        '--namespace',
        'ns',
        '--version',
        '1.2.3',
      ]),
    ).toEqual({
      props: {
        includeCrds: true,
        skipTests: true,
        apiVersions: ['a/v1', 'b/v1', 'c/v1'],
        kubeVersion: '1.30.0',
        valuesFiles: ['x.yaml'],
        namespace: 'ns',
        version: '1.2.3',
      },
      sets: [],
      unknown: [],
    });
  });

  it('returns the others as unknown, their values consumed, not taken for flags', () => {
    expect(readHelmFlags(['--post-renderer', './x.sh', '--validate', '--repo=https://x']).unknown).toEqual([
      '--post-renderer',
      '--validate',
      '--repo',
    ]);
  });

  it('--set and its kin give the value paths they set, never the values (issue 32 item 13c)', () => {
    expect(
      readHelmFlags([
        '--set',
        'a=2',
        '--set-string=b.c=x,d=y',
        '--set-json',
        'e={"k":1,"j":2}',
        '--set',
        'a=3',
      ]),
    ).toEqual({ props: {}, sets: ['a', 'b.c', 'd', 'e'], unknown: [] });
  });

  it("the construct says once per value to use values, and no second error for the flag's value", () => {
    const Helm = defineCdk8sHelm(Names);
    const { app, platform: p } = platform();
    new Helm(p, 'chart', {
      chart: 'charts/web',
      helmFlags: ['--set', 'a=2', '--set', 'db.password=hunter22'],
    });
    const issues = Validation.all(app);
    expect(issues.map((i) => i.message)).toEqual([
      '--set "a" sets a chart value on the helm command line, which Groundwork does not pass on',
      '--set "db.password" sets a chart value on the helm command line, which Groundwork does not pass on',
    ]);
    expect(issues[0]).toMatchObject({
      field: 'helmFlags',
      fix: expect.stringContaining('values: { "a": … }'),
    });
    expect(issues[1]!.fix).toContain('nested: a.b is values: { a: { b: … } }');
    expect(JSON.stringify(issues)).not.toContain('hunter22');
  });
});
