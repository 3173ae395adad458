import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRevisions } from '../../src/cli/actions/preview.js';
import { git } from '../source/git.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CHANNELS = 'io.openshift.upgrades.graph.release.channels';

/**
 * A Cincinnati response in the update service's format (nodes, edges by index, conditionalEdges),
 * with the path: 4.14.38 → 4.14.51 → 4.15.30, and a direct edge that is conditional.
 */
const GRAPH = {
  nodes: [
    ['4.14.38', 'stable-4.14,stable-4.15'],
    ['4.14.51', 'stable-4.14,stable-4.15'],
    ['4.15.30', 'stable-4.15'],
  ].map(([version, channels], i) => ({
    version,
    payload: `quay.io/openshift-release-dev/ocp-release@sha256:${String(i + 1).repeat(64)}`,
    metadata: { [CHANNELS]: channels },
  })),
  edges: [
    [0, 1],
    [1, 2],
  ],
  conditionalEdges: [
    {
      edges: [{ from: '4.14.38', to: '4.15.30' }],
      risks: [
        {
          url: 'https://issues.redhat.com/browse/OCPBUGS-0',
          name: 'ExampleRisk',
          message: 'an example risk',
          matchingRules: [{ type: 'Always' }],
        },
      ],
    },
  ],
};

let root: string;
let dir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gw-preview-graphs-'));
  dir = join(root, 'platform-repo');
  for (const p of ['groundwork.yaml', 'platform', 'overlays', 'catalogs', 'package.json'])
    cpSync(join(REPO, p), join(dir, p), { recursive: true });
  writeFileSync(
    join(dir, 'groundwork.yaml'),
    `${readFileSync(join(dir, 'groundwork.yaml'), 'utf8')}graphs:\n  - graphs/stable-4.15.json\n`,
  );
  writeFileSync(join(root, 'outside.json'), JSON.stringify(GRAPH));
  git(dir, 'init', '-q');
  git(dir, 'checkout', '-q', '-b', 'main');
  // Base: the graph file is a symlink out of the checkout (a hostile pull request's trick).
  mkdirSync(join(dir, 'graphs'));
  symlinkSync(join(root, 'outside.json'), join(dir, 'graphs', 'stable-4.15.json'));
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  rmSync(join(dir, 'graphs', 'stable-4.15.json'));
  cpSync(join(root, 'outside.json'), join(dir, 'graphs', 'stable-4.15.json'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'graphs');
  const prod = join(dir, 'overlays/prod.yaml');
  const text = readFileSync(prod, 'utf8');
  const next = text.replace(
    'channel: stable-4.14\n  version: 4.14.38',
    'channel: stable-4.15\n  version: 4.15.30',
  );
  if (next === text)
    throw new Error('overlays/prod.yaml no longer targets 4.14.38 on stable-4.14: update this test');
  writeFileSync(prod, next);
  git(dir, 'commit', '-q', '-am', 'prod: 4.15.30');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('preview with the graph files groundwork.yaml names', () => {
  it('says the path the agent walks from base target to head target', async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'main', overlay: 'prod' });
    expect(preview.status).toBe('ok');
    const path = preview.overlays[0]!.risks.find((r) => r.code === 'ClusterVersionPath');
    expect(path?.message).toContain('the agent walks 4.14.38 → 4.14.51 → 4.15.30 in 2 steps on stable-4.15');
  }, 120_000);

  it('a graph file that leaves the checkout is head failing, not read', async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'main~2', overlay: 'prod' });
    expect(preview.status).toBe('head-failed');
    // The graph loader refuses it (PathOutsideCheckout) before synth's own symlink check would.
    expect(preview.head.failure!.code).toBe('PathOutsideCheckout');
    expect(preview.head.failure!.message).toContain('graphs/stable-4.15.json');
    expect(JSON.stringify(preview)).not.toContain('ExampleRisk');
    expect(JSON.stringify(preview)).not.toContain(root);
  }, 120_000);
});
