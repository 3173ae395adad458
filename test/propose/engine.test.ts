import { describe, expect, it } from 'vitest';
import { PROPOSE_DEFAULT_CONFIG, proposeSchema } from '../../src/project/propose-config.js';
import { proposeUpdates, type ProposeSources } from '../../src/propose/engine.js';
import type { Pin } from '../../src/propose/pins.js';
import type { PlatformFiles } from '../../src/propose/platform-files.js';
import { proposalSetText } from '../../src/propose/render-proposals.js';
import { keplerCatalog, stable48Subgraph } from './fixtures.js';

const NOW = new Date('2026-11-28T06:00:00Z');
const DIGEST = `sha256:${'a'.repeat(64)}`;
const OVERLAY = [
  'clusterVersion:',
  '  channel: stable-4.7',
  '  version: 4.7.2',
  'kepler:',
  '  pin: kepler-operator.v0.24.0 # pinned',
  'podinfo:',
  '  version: 6.5.0',
  '',
].join('\n');
const LOCK = `apiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n  - repo: https://charts.example\n    name: podinfo\n    version: 6.5.0\n    url: https://charts.example/podinfo-6.5.0.tgz\n    digest: sha256:${'b'.repeat(64)}\n`;
const files: PlatformFiles = {
  overlays: new Map([['overlays/dev.yaml', OVERLAY]]),
  sources: new Map([['platform/main.ts', "export const note = 'nothing pinned here';\n"]]),
  chartLock: { path: 'groundwork-charts.lock.yaml', text: LOCK },
};
const PINS: Pin[] = [
  {
    kind: 'operator',
    subject: 'kepler-operator',
    value: 'kepler-operator.v0.24.0',
    channel: 'alpha',
    construct: 'platform/kepler',
    overlays: ['dev'],
  },
  {
    kind: 'cluster-version',
    subject: 'openshift',
    value: '4.7.2',
    channel: 'stable-4.7',
    acceptedRisks: [],
    overlays: ['dev'],
  },
  { kind: 'chart', subject: 'podinfo', value: '6.5.0', repo: 'https://charts.example', overlays: ['dev'] },
];

function sources(over: Partial<ProposeSources> = {}): ProposeSources {
  return {
    catalogs: async () => [
      keplerCatalog('- name: kepler-operator.v0.24.1\n  replaces: kepler-operator.v0.24.0\n', ['0.24.1']),
    ],
    graph: async () => stable48Subgraph(['4.7.2', '4.7.3', '4.7.4']),
    chartVersions: async () => [{ version: '6.5.0' }, { version: '6.5.1' }, { version: '6.5.2' }],
    resolveChart: async (key) => {
      if (key.version === '6.5.2') throw new Error('HTTP 404');
      return { ...key, url: `https://charts.example/podinfo-${key.version}.tgz`, digest: DIGEST };
    },
    ...over,
  };
}

const run = (over: Partial<ProposeSources> = {}, pins = PINS, config = PROPOSE_DEFAULT_CONFIG) =>
  proposeUpdates({ environment: 'dev', pins, config, files, sources: sources(over), now: NOW });

describe('proposeUpdates', () => {
  it('proposes an operator patch, the next z-stream and a chart patch, each edited in place', async () => {
    const set = await run();
    expect(set.proposals.map((p) => [p.group, p.kind, p.title, p.environment])).toEqual([
      ['operator-kepler-operator', 'operator', 'kepler-operator 0.24.0 → 0.24.1 (alpha)', 'dev'],
      ['openshift', 'cluster-version', 'OpenShift 4.7.2 → 4.7.3 (stable-4.7)', 'dev'],
      ['chart-podinfo', 'chart', 'chart podinfo 6.5.0 → 6.5.1', 'dev'],
    ]);
    const [operator, openshift, chart] = set.proposals;
    expect(operator!.edits).toEqual([
      {
        path: 'overlays/dev.yaml',
        before: OVERLAY,
        after: OVERLAY.replace('v0.24.0 # pinned', 'v0.24.1 # pinned'),
      },
    ]);
    expect(openshift!.edits[0]!.after).toBe(OVERLAY.replace('version: 4.7.2', 'version: 4.7.3'));
    expect(chart!.edits.map((e) => e.path)).toEqual(['groundwork-charts.lock.yaml', 'overlays/dev.yaml']);
    expect(chart!.edits[0]!.after).toBe(
      LOCK.replace('version: 6.5.0', 'version: 6.5.1')
        .replace('podinfo-6.5.0.tgz', 'podinfo-6.5.1.tgz')
        .replace(`sha256:${'b'.repeat(64)}`, DIGEST),
    );
    expect(set.refused.map((r) => [r.subject, r.to, r.reason.split(':')[0]])).toEqual([
      [
        'openshift',
        '4.7.4',
        'reachable only over a conditional update with risk VSphereNodeNameChanges (vSphere clusters leveraging the vSphere cloud provider may lose node names which can have serious impacts on the stability of the control plane and workloads. https',
      ],
      ['chart podinfo', '6.5.2', 'does not resolve'],
    ]);
    const text = proposalSetText(set);
    expect(text).toContain('--- a/overlays/dev.yaml\n+++ b/overlays/dev.yaml\n');
    expect(text).toContain(
      '-  pin: kepler-operator.v0.24.0 # pinned\n+  pin: kepler-operator.v0.24.1 # pinned\n',
    );
    expect(text).toContain('refused chart podinfo → 6.5.2: does not resolve: HTTP 404');
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 proposal(s), 2 refused');
  });

  it('makes no proposal from a catalog, graph or chart index that cannot be read, and says why', async () => {
    const set = await run({
      catalogs: async () => Promise.reject(new Error('catalogs/community-operators: not YAML')),
      graph: async () => Promise.reject(new Error('stable-4.16.json: file not found')),
      chartVersions: async () => Promise.reject(new Error('index.yaml: HTTP 503')),
    });
    expect(set.proposals).toEqual([]);
    expect(set.refused).toEqual([
      {
        subject: 'operator kepler-operator',
        kind: 'operator',
        to: '',
        reason: 'the catalogs of groundwork.yaml cannot be read: catalogs/community-operators: not YAML',
      },
      {
        subject: 'openshift',
        kind: 'cluster-version',
        to: '',
        reason: 'the update graphs of groundwork.yaml cannot be read: stable-4.16.json: file not found',
      },
      {
        subject: 'chart podinfo',
        kind: 'chart',
        to: '',
        reason: 'the chart repository https://charts.example cannot be read: index.yaml: HTTP 503',
      },
    ]);
  });

  it('passes over kinds set to none and ignored subjects, and follows per-environment policy', async () => {
    const config = proposeSchema.parse({
      operators: { update: 'none' },
      charts: { ignore: ['podinfo'] },
      environments: { dev: { clusterVersion: { update: 'none' } } },
    });
    expect(await run({}, PINS, config)).toEqual({ proposals: [], refused: [] });
  });

  it('refuses a pin written nowhere it can be edited, one without a lock entry, and values two pins share', async () => {
    const elsewhere: Pin = { ...PINS[0]!, value: 'kepler-operator.v0.23.0' } as Pin;
    const unlocked: Pin = { ...PINS[2]!, repo: 'https://other.example' } as Pin;
    const set = await run({}, [elsewhere, unlocked], proposeSchema.parse({ operators: { update: 'minor' } }));
    expect(set.proposals).toEqual([]);
    expect(set.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(
        /^kepler-operator\.v0\.23\.0 is written in no overlay of dev and no platform source/,
      ),
      'does not resolve: HTTP 404',
      'podinfo 6.5.0 is not in groundwork-charts.lock.yaml: run groundwork chart lock first',
    ]);
    const shared: Pin = { ...PINS[2]!, subject: 'other', value: '4.7.2' } as Pin;
    const both = await run({}, [PINS[1]!, shared]);
    expect(both.proposals).toEqual([]);
    expect(both.refused.map((r) => r.reason)).toEqual([
      'several pins are written as 4.7.2: an edit could not tell them apart; update it by hand',
      'several pins are written as 4.7.2: an edit could not tell them apart; update it by hand',
    ]);
  });
});
