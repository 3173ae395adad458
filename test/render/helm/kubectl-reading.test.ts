// Every chart fixture (and the Kustomize fixture) synthesized by Groundwork, against the same chart
// rendered by `helm template` (`kustomize build`) and read by kubectl: object by object, the same
// JSON, so what synth applies is what `helm template | kubectl apply -f -` applies.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveBinaries } from '../../../src/dev/controlplane/binaries.js';
import type { K8sObject } from '../../../src/core/object.js';
import { placeRendered } from '../../../src/render/recorded/rendered-objects.js';
import { canonicalize } from '../../../src/render/synth/canonical.js';
import type { Manifest } from '../../../src/render/synth/manifest.js';
import { childSynth } from '../../harness/child-synth.js';
import { readByKubectl } from '../../harness/helm-template.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools, TOOL_BUILD_TIMEOUT_MS } from '../../harness/tools.js';

useTools('helm', 'kustomize');

const run = promisify(execFile);
const FIXTURES = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

/** Each chart fixture, with values that render all of it, without random output. */
const CHARTS = [
  { id: 'subchart', chart: 'subchart', values: { subchartb: { enabled: true } }, file: 'extra_values.yaml' },
  { id: 'schema', chart: 'chart-with-schema', values: {} },
  { id: 'crds-only', chart: 'chart-with-only-crds', values: {} },
  {
    id: 'wordpress',
    chart: 'chart-with-uncompressed-dependencies',
    values: {
      wordpressPassword: 'wp-password',
      mariadb: {
        rootUser: { password: 'root-password' },
        db: { password: 'db-password' },
        replication: { password: 'replication-password' },
      },
    },
  },
  { id: 'kyverno', chart: 'kyverno-like', values: {} },
  { id: 'argocd', chart: 'argo-cd-like', values: { 'redis-ha': { enabled: true } } },
] as const;

let helm: string;
let kustomize: string;
let kubectl: string;
let dir: string;
let manifests: Manifest[];
/** Objects compared so far (the tests of a file run in order). */
let compared = 0;
beforeAll(async () => {
  [helm, kustomize] = [await toolPath('helm'), await toolPath('kustomize')];
  kubectl = (await resolveBinaries()).kubectl!;
  const charts = CHARTS.map(
    (c) =>
      `new HelmChart(platform, '${c.id}', { chart: 'charts/${c.chart}', namespace: 'ns-${c.id}', values: ${JSON.stringify(c.values)}${'file' in c ? `, valuesFiles: ['charts/${c.chart}/${c.file}']` : ''} });`,
  );
  dir =
    platformDir(`import { definePlatform, Platform, HelmChart, Kustomization, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    ${charts.join('\n    ')}
    new Kustomization(platform, 'kustomized', { dir: 'charts/kustomize/overlays/prod' });
  },
});
`);
  cpSync(FIXTURES, join(dir, 'charts'), { recursive: true });
  const tools = { helm: async () => helm, kustomize: async () => kustomize };
  manifests = (await childSynth(dir, { renderTools: tools }))[0]!.manifests;
}, TOOL_BUILD_TIMEOUT_MS);

/** Objects as compared: canonical key order, and no empty `annotations` (kubectl's annotate leaves one). */
function comparable(objects: readonly K8sObject[]): K8sObject[] {
  return objects
    .map((o) => {
      const { annotations, ...metadata } = o.metadata;
      return canonicalize({
        ...o,
        metadata:
          annotations && Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata,
      });
    })
    .sort((a, b) => key(a).localeCompare(key(b)));
}

const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

describe('synth gives, object by object, what kubectl reads from helm template and kustomize build', () => {
  it.each(CHARTS)('chart $chart', async (c) => {
    const work = mkdtempSync(join(tmpdir(), 'gw-kubectl-values-'));
    writeFileSync(join(work, 'values.json'), JSON.stringify(c.values));
    const { stdout } = await run(
      helm,
      [
        'template',
        c.id,
        join(dir, 'charts', c.chart),
        '--namespace',
        `ns-${c.id}`,
        '--kube-version',
        'v1.29.0',
        '--include-crds',
        '--skip-tests',
        ...('file' in c ? ['--values', join(dir, 'charts', c.chart, c.file)] : []),
        '--values',
        join(work, 'values.json'),
      ],
      { env: { PATH: '/usr/bin:/bin', HOME: work }, maxBuffer: 1 << 28 },
    );
    const read = (await readByKubectl(kubectl, stdout)) as unknown as K8sObject[];
    // Placed as synth places a chart's objects (the release namespace, hook annotations): pure.
    const expected = placeRendered(
      read.map((object) => ({ object })),
      { namespace: `ns-${c.id}` },
    ).objects.map((o) => o.object);
    const synthesized = manifests.filter((m) => m.source === `platform/${c.id}`).map((m) => m.object);
    // chart-with-schema renders no object at all (its one template is blank), in both.
    expect(synthesized.length).toBe(c.chart === 'chart-with-schema' ? 0 : expected.length);
    expect(comparable(synthesized)).toEqual(comparable(expected));
    compared += expected.length;
  });

  it('the Kustomize fixture', async () => {
    const { stdout } = await run(kustomize, ['build', join(dir, 'charts/kustomize/overlays/prod')], {
      env: { PATH: '/usr/bin:/bin', HOME: tmpdir() },
    });
    const expected = (await readByKubectl(kubectl, stdout)) as unknown as K8sObject[];
    const synthesized = manifests.filter((m) => m.source === 'platform/kustomized').map((m) => m.object);
    expect(synthesized.length).toBeGreaterThan(0);
    expect(comparable(synthesized)).toEqual(comparable(expected));
    compared += expected.length;
  });

  it('compared every object of every fixture', () => {
    expect(compared).toBeGreaterThan(20);
    expect(compared).toBe(manifests.length);
  });

  it("the modes kyverno's and argo-cd's charts write in octal are the modes kubectl sends", () => {
    const volumes = (name: string) =>
      (
        manifests.find((m) => m.object.metadata.name === name)!.object.spec as {
          template: {
            spec: { volumes: { projected?: { defaultMode: number }; configMap?: { defaultMode: number } }[] };
          };
        }
      ).template.spec.volumes[0]!;
    // 0444 (r--r--r--), not 444 (0o674: group-writable, executable).
    expect(volumes('kyverno-like-admission-controller').projected!.defaultMode).toBe(0o444);
    // 0755, not 755, which the apiserver refuses (more than 0777).
    expect(volumes('argocd-redis-ha-server').configMap!.defaultMode).toBe(0o755);
  });
});
