import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPOSE_DEFAULT_CONFIG } from '../../src/project/propose-config.js';
import { listChartVersions } from '../../src/propose/chart-versions.js';
import { proposeUpdates } from '../../src/propose/engine.js';
import { projectSources } from '../../src/propose/project-sources.js';
import { serveChartRepository, type ChartRepositoryServer } from '../harness/chart-repository-server.js';
import { keplerCatalogText } from './fixtures.js';

let server: ChartRepositoryServer;
let index = '';

beforeAll(async () => {
  server = await serveChartRepository({ 'index.yaml': () => index });
});
afterAll(async () => server.close());

describe('listChartVersions (an HTTP chart repository, as chart update reads it)', () => {
  it('lists the versions of the chart with their created dates', async () => {
    index =
      'apiVersion: v1\nentries:\n  podinfo:\n    - version: 6.5.1\n      created: "2026-11-01T10:00:00Z"\n      urls: [a.tgz]\n    - version: 6.5.0\n      urls: [b.tgz]\n  other:\n    - version: 1.0.0\n      urls: [c.tgz]\n';
    expect(await listChartVersions({ repo: server.url, name: 'podinfo' })).toEqual([
      { version: '6.5.1', created: new Date('2026-11-01T10:00:00Z') },
      { version: '6.5.0' },
    ]);
    expect(await listChartVersions({ repo: `${server.url}/`, name: 'absent' })).toEqual([]);
  });

  it('throws for an answer that is not a chart repository index, and for a missing index', async () => {
    index = 'entries: [1, 2]\n';
    await expect(listChartVersions({ repo: server.url, name: 'podinfo' })).rejects.toThrow(
      /not a chart repository index/,
    );
    await expect(listChartVersions({ repo: `${server.url}/nowhere`, name: 'podinfo' })).rejects.toThrow(
      /HTTP 404/,
    );
  });
});

describe('projectSources: the catalogs and graphs groundwork.yaml names, read from the checkout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-propose-sources-'));
  mkdirSync(join(dir, 'catalogs/ok'), { recursive: true });
  writeFileSync(join(dir, 'catalogs/ok/kepler.yaml'), keplerCatalogText('', []));
  mkdirSync(join(dir, 'catalogs/broken'));
  writeFileSync(join(dir, 'catalogs/broken/x.yaml'), 'schema: olm.channel\nentries: {not: a list}\n');
  mkdirSync(join(dir, 'graphs'));
  writeFileSync(join(dir, 'graphs/bad.json'), '{"nodes": "no"}');

  it('loads a catalog directory under its groundwork.yaml name', async () => {
    const [named] = await projectSources(dir, { catalogs: ['catalogs/ok'], graphs: [] }).catalogs();
    expect(named!.name).toBe('catalogs/ok');
    expect(named!.catalog.packages.has('kepler-operator')).toBe(true);
  });

  it('an unreadable catalog or graph refuses the pins that need it, with the reader’s reason', async () => {
    const sources = projectSources(dir, { catalogs: ['catalogs/broken'], graphs: ['graphs/bad.json'] });
    const set = await proposeUpdates({
      environment: 'dev',
      pins: [
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
      ],
      config: PROPOSE_DEFAULT_CONFIG,
      files: { overlays: new Map(), sources: new Map() },
      sources,
      now: new Date(),
    });
    expect(set.proposals).toEqual([]);
    expect(set.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^the catalogs of groundwork\.yaml cannot be read: .*catalogs\/broken/),
      expect.stringMatching(/^the update graphs of groundwork\.yaml cannot be read: .*graphs\/bad\.json/),
    ]);
    await expect(projectSources(dir, { catalogs: [], graphs: [] }).graph()).rejects.toThrow(
      /lists no update graph/,
    );
    await expect(
      projectSources(dir, { catalogs: ['catalogs/missing'], graphs: [] }).catalogs(),
    ).rejects.toThrow();
  });
});
