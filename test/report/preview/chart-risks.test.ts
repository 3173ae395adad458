import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { previewOverlay } from '../../../src/report/preview/overlay-preview.js';
import type { RenderedChart } from '../../../src/render/helm/rendered-chart.js';
import { compareManifests, setHash, toManifest } from '../../../src/render/synth/manifest.js';
import type { SynthResult } from '../../../src/render/synth/synthesize.js';

function result(charts: RenderedChart[], objects: { object: K8sObject; source: string }[]): SynthResult {
  const manifests = objects.map((o) => toManifest(o.object, o.source)).sort(compareManifests);
  return { platform: 'p', overlay: 'dev', manifests, hash: setHash(manifests), warnings: [], charts };
}

const deployment = (image: string): K8sObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'ingress', namespace: 'ingress' },
  spec: { template: { spec: { containers: [{ name: 'c', image }] } } },
});
const service: K8sObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'ingress', namespace: 'ingress' },
};
const chart = (version: string, valuesHash = 'sha256:a'): RenderedChart => ({
  path: 'platform/ingress',
  chart: 'ingress-nginx',
  repo: 'https://charts.example.com',
  version,
  valuesHash,
});
const objects = (image: string) => [
  { object: deployment(image), source: 'platform/ingress' },
  { object: service, source: 'platform/ingress' },
];

describe('preview risk notes for Helm charts', () => {
  it.each([
    ['4.11.3', '5.0.0', 'high', /goes from 4\.11\.3 to 5\.0\.0 \(a new major version/],
    ['4.11.3', '4.12.0', 'medium', /goes from 4\.11\.3 to 4\.12\.0; 1 object of it changes$/],
    ['4.12.0', '4.11.3', 'high', /\(a downgrade\)/],
  ])(
    'a chart bump %s -> %s is %s, naming the chart, the construct and the objects that change',
    (from, to, severity, message) => {
      const preview = previewOverlay(
        'dev',
        result([chart(from)], objects('a:1')),
        result([chart(to)], objects('a:2')),
      );
      const note = preview.risks.find((r) => r.code === 'ChartVersion');
      expect(note).toMatchObject({ severity, subject: 'chart platform/ingress', source: 'platform/ingress' });
      expect(note!.message).toContain('ingress-nginx (https://charts.example.com)');
      expect(note!.message).toMatch(message);
    },
  );

  it('other values of the same version are a low note; unchanged charts none', () => {
    const changed = previewOverlay(
      'dev',
      result([chart('4.11.3')], objects('a:1')),
      result([chart('4.11.3', 'sha256:b')], objects('a:2')),
    );
    expect(changed.risks.filter((r) => r.code.startsWith('Chart'))).toEqual([
      expect.objectContaining({
        code: 'ChartValues',
        severity: 'low',
        message: expect.stringContaining('1 object of it changes'),
      }),
    ]);
    const same = previewOverlay(
      'dev',
      result([chart('4.11.3')], objects('a:1')),
      result([chart('4.11.3')], objects('a:1')),
    );
    expect(same.risks.filter((r) => r.code.startsWith('Chart'))).toEqual([]);
  });
});
