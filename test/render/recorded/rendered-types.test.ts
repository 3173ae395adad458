// Wrong JSON types in rendered workload objects: the pure check, and the kyverno-like fixture chart
// rendered by the real helm with a replicas value that is no number.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { renderedTypeProblems, valuePaths } from '../../../src/render/recorded/rendered-types.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools, TOOL_BUILD_TIMEOUT_MS } from '../../harness/tools.js';

useTools('helm');

const FIXTURES = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

const deployment = (spec: Record<string, unknown>): K8sObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'n' },
  spec,
});

describe('renderedTypeProblems', () => {
  it('names the field, the wrong type and the value of replicas, ports and flags', () => {
    const problems = renderedTypeProblems(
      deployment({
        replicas: '3',
        template: {
          spec: {
            containers: [
              { name: 'a', ports: [{ containerPort: 80 }, { containerPort: '8080' }] },
              { name: 'b', securityContext: { runAsNonRoot: 'true' } },
            ],
          },
        },
      }),
    );
    expect(problems.map((p) => p.field).sort()).toEqual([
      '/spec/replicas',
      '/spec/template/spec/containers/0/ports/1/containerPort',
      '/spec/template/spec/containers/1/securityContext/runAsNonRoot',
    ]);
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.field === '/spec/replicas')!.message).toBe(
      'Deployment web: /spec/replicas is the string "3", the apiserver wants an integer',
    );
    expect(problems.find((p) => p.field.endsWith('runAsNonRoot'))!.message).toContain('wants a boolean');
  });

  it('accepts right types, null and absent fields, fractions are no integers, other kinds are not checked', () => {
    expect(renderedTypeProblems(deployment({ replicas: 2, paused: false, minReadySeconds: null }))).toEqual(
      [],
    );
    expect(renderedTypeProblems(deployment({ replicas: 1.5 }))[0]!.message).toContain('the number 1.5');
    const service: K8sObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 'http' }] },
    };
    expect(renderedTypeProblems(service).map((p) => p.field)).toEqual(['/spec/ports/0/port']);
    const cm: K8sObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { replicas: '3' },
    };
    expect(renderedTypeProblems(cm)).toEqual([]);
  });

  it('finds the chart values that hold a value', () => {
    const values = { a: { replicas: 'two', list: [{ port: 'two' }] }, b: 2 };
    expect(valuePaths(values, 'two')).toEqual(['a.replicas', 'a.list[0].port']);
    expect(valuePaths(values, 2)).toEqual(['b']);
    expect(valuePaths(values, '2')).toEqual([]);
  });
});

describe('synth of a chart with a wrong-type value', () => {
  const platform = (overlay: string) => {
    const dir = platformDir(
      `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ replicas: z.union([z.string(), z.number()]) }),
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'kyverno', { chart: 'charts/kyverno-like', namespace: 'kyverno', values: { admissionController: { replicas: values.replicas } } });
  },
});
`,
      { files: { 'overlays/dev.yaml': overlay } },
    );
    cpSync(FIXTURES, join(dir, 'charts'), { recursive: true });
    return dir;
  };

  it(
    'fails synth naming the construct, the template, the field and the overlay value; a number passes',
    async () => {
      const tools = { helm: () => toolPath('helm'), kustomize: () => toolPath('kustomize') };
      const err = await childSynthError(platform('# dev\nreplicas: two\n'), { renderTools: tools });
      expect(err).toBeInstanceOf(SynthValidationError);
      const issue = (err as SynthValidationError).issues.find((i) => i.severity === 'error')!;
      expect(issue.path).toBe('platform/kyverno');
      expect(issue.field).toBe('kyverno-like/templates/deployment.yaml /spec/replicas');
      expect(issue.message).toBe(
        'Deployment kyverno-like-admission-controller: /spec/replicas is the string "two", the apiserver wants an integer (from values.admissionController.replicas)',
      );
      expect(issue.from).toBe('overlays/dev.yaml:2 (replicas)');
      const ok = await childSynth(platform('replicas: 2\n'), { renderTools: tools });
      expect(ok[0]!.manifests.some((m) => m.object.kind === 'Deployment')).toBe(true);
    },
    TOOL_BUILD_TIMEOUT_MS,
  );
});
