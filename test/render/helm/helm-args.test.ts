import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import {
  helmRequestProblem,
  helmTemplateArgs,
  type HelmTemplateFiles,
} from '../../../src/render/helm/helm-args.js';
import type { HelmRequest } from '../../../src/render/recorded/render-request.js';

const request = (over: Partial<HelmRequest> = {}): HelmRequest => ({
  engine: 'helm',
  path: 'platform/ingress',
  chart: 'charts/ingress',
  releaseName: 'ingress',
  values: {},
  valuesFiles: [],
  includeCrds: false,
  includeTests: false,
  apiVersions: [],
  ignoreDifferences: [],
  ...over,
});
const files: HelmTemplateFiles = {
  chart: '/repo/charts/ingress',
  chartRoots: ['/repo', '/cache/charts'],
  valuesFiles: ['/tmp/v/values-0.yaml', '/tmp/v/values-code.json'],
  valuesDir: '/tmp/v',
};

describe('helmTemplateArgs', () => {
  it('puts every flag as one --flag=value element, then -- and the two positionals', () => {
    expect(
      helmTemplateArgs(
        request({
          namespace: 'ingress',
          kubeVersion: 'v1.29.0',
          apiVersions: ['monitoring.coreos.com/v1', 'v1/Service'],
          includeCrds: true,
        }),
        files,
      ),
    ).toEqual([
      'template',
      '--namespace=ingress',
      '--kube-version=v1.29.0',
      '--api-versions=monitoring.coreos.com/v1',
      '--api-versions=v1/Service',
      '--include-crds',
      '--skip-tests',
      '--values=/tmp/v/values-0.yaml',
      '--values=/tmp/v/values-code.json',
      '--',
      'ingress',
      '/repo/charts/ingress',
    ]);
  });

  it('takes an archive of the cache as the chart', () => {
    expect(helmTemplateArgs(request(), { ...files, chart: '/cache/charts/sha256-ab.tgz' }).at(-1)).toBe(
      '/cache/charts/sha256-ab.tgz',
    );
  });

  it.each([
    [{ releaseName: '--post-renderer=./evil.sh' }, 'releaseName'],
    [{ releaseName: '-f' }, 'releaseName'],
    [{ releaseName: 'a'.repeat(54) }, 'releaseName'],
    [{ releaseName: 'ok\n--set-file=x' }, 'releaseName'],
    [{ namespace: '--set-file=a=/etc/passwd' }, 'namespace'],
    [{ kubeVersion: '--post-renderer=x' }, 'kubeVersion'],
    [{ apiVersions: ['v1', '--set-file=x=/proc/1/environ'] }, 'apiVersions'],
  ] as [Partial<HelmRequest>, string][])(
    'refuses %j (field %s), naming the construct path',
    (over, field) => {
      expect(helmRequestProblem(request(over))?.field).toBe(field);
      let err: unknown;
      try {
        helmTemplateArgs(request(over), files);
      } catch (e) {
        err = e;
      }
      expect(hasCode(err, 'UnsafeToolArgument')).toBe(true);
      expect(String(err)).toContain(`platform/ingress ${field}`);
    },
  );

  it.each([
    ['a chart outside the checkout and the cache', { chart: '/etc' }],
    ['a chart beside the checkout', { chart: '/repo-other/chart' }],
    ['a values file Groundwork did not write', { valuesFiles: ['/repo/secret.yaml'] }],
    ['a values file below the values directory', { valuesFiles: ['/tmp/v/sub/values-0.yaml'] }],
  ])('refuses %s', (_what, over) => {
    expect(() => helmTemplateArgs(request(), { ...files, ...over })).toThrow(/helm was not run/);
  });
});
