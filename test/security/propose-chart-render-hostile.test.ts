// propose renders a proposed chart version (chartRenderCheck): the chart and the repository are
// outside content, and what comes back from the renderer (its error messages) is data. It may reach
// a refusal only as one bounded line, without the temporary copy's path; an edit may not write
// outside the copy; the checkout itself is never written.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROPOSE_DEFAULT_CONFIG } from '../../src/project/propose-config.js';
import { chartRenderCheck } from '../../src/propose/chart-render-check.js';
import { proposeUpdates } from '../../src/propose/engine.js';
import { SynthValidationError } from '../../src/render/synth/validation.js';

const HOSTILE = `broken\n\n## Approved by security\n[merge me](javascript:alert(1)) <img src=x onerror=alert(1)> ${'x'.repeat(5000)}`;
const LOCK = `apiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n  - repo: https://charts.example\n    name: podinfo\n    version: 6.5.0\n    url: https://charts.example/podinfo-6.5.0.tgz\n    digest: sha256:${'b'.repeat(64)}\n`;

function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-propose-render-hostile-'));
  mkdirSync(join(dir, 'overlays'));
  writeFileSync(join(dir, 'overlays/dev.yaml'), 'podinfo:\n  version: 6.5.0\n');
  writeFileSync(join(dir, 'groundwork-charts.lock.yaml'), LOCK);
  return dir;
}

describe('a hostile render answer', () => {
  it('reaches the refusal as one bounded line, without the copy’s path', async () => {
    const dir = checkout();
    let copy = '';
    const check = chartRenderCheck({
      root: dir,
      overlays: ['dev'],
      render: async (at) => {
        copy = String(at);
        throw new SynthValidationError([
          { path: 'platform/podinfo', field: 'chart', message: `${HOSTILE} at ${copy}/x`, severity: 'error' },
        ]);
      },
    });
    const set = await proposeUpdates({
      environment: 'dev',
      pins: [
        {
          kind: 'chart',
          subject: 'podinfo',
          value: '6.5.0',
          repo: 'https://charts.example',
          overlays: ['dev'],
        },
      ],
      config: PROPOSE_DEFAULT_CONFIG,
      files: {
        overlays: new Map([['overlays/dev.yaml', 'podinfo:\n  version: 6.5.0\n']]),
        sources: new Map(),
        chartLock: { path: 'groundwork-charts.lock.yaml', text: LOCK },
      },
      sources: {
        catalogs: () => Promise.reject(new Error('unused')),
        graph: () => Promise.reject(new Error('unused')),
        chartVersions: async () => [{ version: '6.5.1' }],
        resolveChart: async (key) => ({
          ...key,
          url: 'https://charts.example/podinfo-6.5.1.tgz',
          digest: `sha256:${'d'.repeat(64)}`,
        }),
        chartRenders: check,
      },
      now: new Date(),
    });
    expect(set.proposals).toEqual([]);
    const [refusal] = set.refused;
    expect(refusal!.to).toBe('6.5.1');
    expect(refusal!.reason).toMatch(
      /^does not render with the platform's values \(overlay dev\): platform\/podinfo/,
    );
    expect(refusal!.reason).not.toMatch(/[\n\r]/);
    expect(refusal!.reason.length).toBeLessThanOrEqual(800);
    expect(copy).not.toBe('');
    expect(refusal!.reason).not.toContain(copy);
    // The copy is gone, and the checkout holds what it held.
    expect(() => readdirSync(copy)).toThrow();
    expect(readFileSync(join(dir, 'overlays/dev.yaml'), 'utf8')).toBe('podinfo:\n  version: 6.5.0\n');
  });

  it('an edit path that leaves the copy is refused before anything is written or rendered', async () => {
    const dir = checkout();
    let rendered = 0;
    const check = chartRenderCheck({
      root: dir,
      overlays: ['dev'],
      render: async () => {
        rendered++;
        return [];
      },
    });
    for (const path of ['../escaped.yaml', '/tmp/escaped.yaml', 'overlays/../../escaped.yaml']) {
      await expect(
        check({
          repo: 'https://charts.example',
          name: 'podinfo',
          version: '6.5.1',
          edits: [{ path, before: '', after: 'x' }],
        }),
      ).rejects.toThrow(/is not a repository path/);
    }
    expect(rendered).toBe(0);
    expect(readdirSync(join(dir, '..')).filter((f) => f === 'escaped.yaml')).toEqual([]);
  });
});
