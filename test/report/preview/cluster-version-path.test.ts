import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { graphFromCincinnati, mergeGraphs } from '../../../src/cluster-version/graph.js';
import { buildPreview, previewMarkdown } from '../../../src/report/preview/index.js';
import { clusterVersionPathRisks } from '../../../src/report/preview/risks/cluster-version-path.js';
import { expectGolden } from '../../harness/golden.js';
import { clusterVersion, pairs, result } from './helpers.js';

const GOLDEN = fileURLToPath(new URL('../golden/preview-version-path.md', import.meta.url));

/** Real update-service responses (test/fixtures/PROVENANCE.md), merged as the agent merges a repository's graphs. */
const graphFile = (name: string) =>
  graphFromCincinnati(
    readFileSync(fileURLToPath(new URL(`../../fixtures/update-graphs/${name}`, import.meta.url)), 'utf8'),
    name,
  );
const graph = mergeGraphs([graphFile('stable-4.8.json'), graphFile('stable-4.9.json')]);
const risky = { 'groundwork.io/accepted-risks': '["VSphereNodeNameChanges"]' };

describe('clusterVersionPathRisks', () => {
  it('names each step the agent walks, from base target to head target', () => {
    const [note, ...rest] = clusterVersionPathRisks(
      pairs([clusterVersion('4.7.0', 'stable-4.7')], [clusterVersion('4.8.54', 'stable-4.8')]),
      { graph },
    );
    expect(rest).toEqual([]);
    expect(note).toMatchObject({
      severity: 'info',
      code: 'ClusterVersionPath',
      subject: 'ClusterVersion/version',
    });
    expect(note!.message).toContain('the agent walks 4.7.0 → 4.7.60 → 4.8.54 in 2 steps on stable-4.8');
    expect(note!.message).toContain('1. 4.7.0 → 4.7.60 patch; 2. 4.7.60 → 4.8.54 minor');
  });

  it('a step that is a conditional update names its risks', () => {
    const [note] = clusterVersionPathRisks(
      pairs([clusterVersion('4.7.0', 'stable-4.8')], [clusterVersion('4.7.4', 'stable-4.8', risky)]),
      { graph },
    );
    expect(note!.code).toBe('ClusterVersionPath');
    expect(note!.message).toContain('(conditional, accepted risks: VSphereNodeNameChanges)');
  });

  it('a target the graphs do not reach: the planner says why', () => {
    const notRisked = clusterVersionPathRisks(
      pairs([clusterVersion('4.7.0', 'stable-4.8')], [clusterVersion('4.7.4', 'stable-4.8')]),
      { graph },
    );
    // The engine refuses a path that needs a risk the target does not accept: a blocker.
    expect(notRisked).toMatchObject([
      {
        severity: 'blocker',
        code: 'ClusterVersionUnreachable',
        message: expect.stringContaining('(RiskNotAccepted)'),
      },
    ]);
    const unknown = clusterVersionPathRisks(
      pairs([clusterVersion('4.8.10', 'stable-4.8')], [clusterVersion('4.9.99', 'stable-4.9')]),
      { graph },
    );
    expect(unknown[0]!.message).toContain(
      '(NotInGraph): 4.9.99 is not a release in stable-4.8.json + stable-4.9.json',
    );
    // Not in the repository's graphs: the cluster's update service may still offer it.
    expect(unknown[0]!.severity).toBe('high');
  });

  it('no note without graph files, for a target moved back, or for a new ClusterVersion', () => {
    const forward = pairs([clusterVersion('4.7.0', 'stable-4.8')], [clusterVersion('4.8.54', 'stable-4.8')]);
    expect(clusterVersionPathRisks(forward, {})).toEqual([]);
    const back = pairs([clusterVersion('4.8.54', 'stable-4.8')], [clusterVersion('4.7.0', 'stable-4.8')]);
    expect(clusterVersionPathRisks(back, { graph })).toEqual([]);
    expect(clusterVersionPathRisks(pairs([], [clusterVersion('4.8.54', 'stable-4.8')]), { graph })).toEqual(
      [],
    );
  });
});

describe('preview of a version target change with graph files', () => {
  it('Markdown: the minor-update note and the path the agent walks (golden)', () => {
    const p = buildPreview({
      base: [result('prod', [clusterVersion('4.8.10', 'stable-4.8')])],
      head: [result('prod', [clusterVersion('4.9.53', 'stable-4.9')])],
      graph,
    });
    expect(p.overlays[0]!.risks.map((r) => r.code)).toEqual([
      'ClusterVersionMinor',
      'ClusterVersionChannel',
      'ClusterVersionPath',
    ]);
    expectGolden(GOLDEN, previewMarkdown(p));
  });
});
