// groundwork propose reads four inputs a pull request or an outside party controls: the propose:
// policy of groundwork.yaml, the catalogs and update graphs the repository names, and a chart
// repository's index and answers. None of it may reach a proposal's title, edit path, notes or
// refusal reasons as anything but a checked version, a checked name or one bounded line.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { graphFromCincinnati } from '../../src/cluster-version/graph.js';
import { hasCode } from '../../src/core/errors.js';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import { loadProjectConfig } from '../../src/project/config.js';
import { PROPOSE_DEFAULT_CONFIG } from '../../src/project/propose-config.js';
import { proposeUpdates, type ProposeSources } from '../../src/propose/engine.js';
import { targetEnvironment } from '../../src/propose/environment.js';
import type { Pin } from '../../src/propose/pins.js';
import type { PlatformFiles } from '../../src/propose/platform-files.js';
import type { ProposalSet } from '../../src/propose/proposal.js';
import { readPlatformFiles } from '../../src/propose/read-platform-files.js';
import { keplerCatalogText } from '../propose/fixtures.js';

const NOW = new Date('2026-11-28T06:00:00Z');
const OVERLAY =
  'clusterVersion:\n  channel: stable-4.16\n  version: 4.16.20\nkepler:\n  pin: kepler-operator.v0.24.0\npodinfo:\n  version: 6.5.0\n';
const LOCK = `apiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n  - repo: https://charts.example\n    name: podinfo\n    version: 6.5.0\n    url: https://charts.example/podinfo-6.5.0.tgz\n    digest: sha256:${'b'.repeat(64)}\n`;
const FILES: PlatformFiles = {
  overlays: new Map([['overlays/dev.yaml', OVERLAY]]),
  sources: new Map(),
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
    value: '4.16.20',
    channel: 'stable-4.16',
    acceptedRisks: [],
    overlays: ['dev'],
  },
  { kind: 'chart', subject: 'podinfo', value: '6.5.0', repo: 'https://charts.example', overlays: ['dev'] },
];
const HOSTILE =
  '1.0.1\n\n## Approved by security\n[merge me](javascript:alert(1)) <img src=x onerror=alert(1)> ../../.git/config';

function run(sources: Partial<ProposeSources>, pins: Pin[] = PINS): Promise<ProposalSet> {
  const none = async () => Promise.reject(new Error('not asked in this test'));
  return proposeUpdates({
    environment: 'dev',
    pins,
    config: PROPOSE_DEFAULT_CONFIG,
    files: FILES,
    sources: { catalogs: none, graph: none, chartVersions: none, resolveChart: none, ...sources },
    now: NOW,
  });
}

/** Every text of the set that reaches a sink: one line each, bounded, no path out of the repository. */
function expectInert(set: ProposalSet): void {
  for (const p of set.proposals) {
    for (const text of [p.title, p.from, p.to, p.group, ...p.notes]) {
      expect(text).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(text.length).toBeLessThan(1000);
    }
    expect(p.group).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    expect(`${p.title} ${p.from} ${p.to}`).not.toMatch(/[[\]<>`]|javascript:|\.\.\//);
    for (const e of p.edits) expect(e.path).toMatch(/^(overlays\/dev\.yaml|groundwork-charts\.lock\.yaml)$/);
  }
  for (const r of set.refused) {
    expect(r.reason).not.toMatch(/[\n\r]/);
    expect(r.reason.length).toBeLessThanOrEqual(800);
    expect(r.to).toMatch(/^([A-Za-z0-9][A-Za-z0-9._+-]*)?$/);
  }
}

describe('hostile catalog content', () => {
  it('a CSV name or version with newlines and markdown is never proposed, nor echoed', async () => {
    const bad = 'kepler-operator.v0.24.1\\n[x](javascript:y)';
    const text = keplerCatalogText(`- name: "${bad}"\n  replaces: kepler-operator.v0.24.0\n`, []).concat(
      `---\nschema: olm.bundle\nname: "${bad}"\npackage: kepler-operator\nimage: registry.invalid/k:1\nproperties:\n  - type: olm.package\n    value: { packageName: kepler-operator, version: "0.24.1" }\n`,
    );
    const catalog = parseCatalog([{ path: 'catalogs/k.yaml', text }]);
    expect([...catalog.packages.get('kepler-operator')!.bundles.keys()]).toContain(bad.replace('\\n', '\n'));
    const set = await run({ catalogs: async () => [{ name: 'catalogs/k.yaml', catalog }] }, [PINS[0]!]);
    expect(set.proposals).toEqual([]);
    expectInert(set);
    expect(JSON.stringify(set)).not.toContain('javascript');
  });
});

describe('hostile update graph content', () => {
  const node = (version: string) => ({
    version,
    payload: `quay.io/x@sha256:${'c'.repeat(64)}`,
    metadata: { 'io.openshift.upgrades.graph.release.channels': 'stable-4.16' },
  });

  it('a release version that is not SemVer is refused by the graph reader', () => {
    expect(() =>
      graphFromCincinnati(
        JSON.stringify({ nodes: [node('4.16.20'), node(HOSTILE)], edges: [[0, 1]] }),
        'g.json',
      ),
    ).toThrow();
  });

  it('a risk name, message and URL crafted as markdown reach a refusal as one line, the name and URL dropped', async () => {
    const graph = graphFromCincinnati(
      JSON.stringify({
        nodes: [node('4.16.20'), node('4.16.21')],
        edges: [],
        conditionalEdges: [
          {
            edges: [{ from: '4.16.20', to: '4.16.21' }],
            risks: [
              {
                name: 'Risk](javascript:alert(1))',
                url: 'javascript:alert(1)',
                message: HOSTILE,
                matchingRules: [{ type: 'Always' }],
              },
            ],
          },
        ],
      }),
      'g.json',
    );
    const set = await run({ graph: async () => graph }, [PINS[1]!]);
    expect(set.proposals).toEqual([]);
    expect(set.refused).toHaveLength(1);
    expectInert(set);
    expect(set.refused[0]!.reason).not.toContain('javascript:alert(1))');
    expect(set.refused[0]!.reason).toContain('with risk (unnamed)');
    expect(set.refused[0]!.reason).not.toContain('alert');
  });
});

describe('hostile chart repository answers', () => {
  it('index versions with newlines, paths or markdown are left out; only SemVer is proposed', async () => {
    const set = await run(
      {
        chartVersions: async () => [
          { version: HOSTILE },
          { version: '6.5.1/../../../etc' },
          { version: '6.5.1\n' },
          { version: '6.5.1' },
        ],
        resolveChart: async (key) => ({
          ...key,
          url: 'https://charts.example/podinfo-6.5.1.tgz',
          digest: `sha256:${'d'.repeat(64)}`,
        }),
      },
      [PINS[2]!],
    );
    expect(set.proposals.map((p) => p.to)).toEqual(['6.5.1']);
    expectInert(set);
  });

  it('a resolution that answers a file: URL or no sha256 digest is refused, not written to the lock', async () => {
    for (const answer of [
      { url: 'file:///etc/passwd', digest: `sha256:${'d'.repeat(64)}` },
      { url: 'https://charts.example/p.tgz', digest: 'md5:abc\n- repo: evil' },
    ]) {
      const set = await run(
        {
          chartVersions: async () => [{ version: '6.5.1' }],
          resolveChart: async (key) => ({ ...key, ...answer }),
        },
        [PINS[2]!],
      );
      expect(set.proposals).toEqual([]);
      expect(set.refused[0]!.reason).toContain('does not resolve');
      expectInert(set);
    }
  });
});

describe('a hostile propose: policy and platform tree', () => {
  const repo = (yaml: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-propose-hostile-'));
    writeFileSync(join(dir, 'groundwork.yaml'), yaml);
    return dir;
  };

  it.each([
    ['an ignore rule with a newline and markdown', 'propose:\n  charts:\n    ignore: ["podinfo\\n[x](y)"]\n'],
    ['an ignore rule with a path', 'propose:\n  operators:\n    ignore: ["../../etc/passwd"]\n'],
    [
      'too many ignore rules',
      `propose:\n  charts:\n    ignore: [${Array.from({ length: 201 }, (_, i) => `c${i}`).join(', ')}]\n`,
    ],
    ['a huge rule', `propose:\n  charts:\n    ignore: ["${'a'.repeat(400)}"]\n`],
    ['an unknown key', 'propose:\n  charts:\n    command: "rm -rf /"\n'],
    ['an environment that is not a label', 'propose:\n  environments:\n    "../prod": {}\n'],
  ])('refuses %s in groundwork.yaml, naming the key', async (_what, block) => {
    const err = await loadProjectConfig(repo(`name: p\n${block}`)).catch((e: unknown) => e);
    expect(hasCode(err, 'InvalidConfig')).toBe(true);
    expect((err as Error).message).toContain('propose');
    expect((err as Error).message).not.toContain('rm -rf');
  });

  it('refuses propose.environments naming an environment that does not exist', async () => {
    const config = await loadProjectConfig(repo('name: p\npropose:\n  environments:\n    staging: {}\n'));
    expect(() => targetEnvironment(config)).toThrow(/names no environment: "staging"/);
  });

  it('reads no overlay outside the overlays folder, and no platform source through a link', async () => {
    const dir = repo('name: p\n');
    const outside = mkdtempSync(join(tmpdir(), 'gw-propose-outside-'));
    writeFileSync(join(outside, 'secret.ts'), "export const token = 'kepler-operator.v0.24.0';\n");
    mkdirSync(join(dir, 'platform'));
    mkdirSync(join(dir, 'overlays'));
    writeFileSync(join(dir, 'platform/main.ts'), 'export default 1;\n');
    symlinkSync(join(outside, 'secret.ts'), join(dir, 'platform/linked.ts'));
    const config = { overlays: 'overlays', entry: 'platform/main.ts' };
    await expect(readPlatformFiles(dir, config, ['../../etc/passwd'])).rejects.toThrow(
      /is not an overlay name/,
    );
    const files = await readPlatformFiles(dir, config, ['dev']);
    expect([...files.sources.keys()]).toEqual(['platform/main.ts']);
  });
});
