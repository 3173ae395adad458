import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, type ImportEdge } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The product files that may use `src/dev` (the local control plane, the simulators, the laptop git
 * server): the CLI commands that start them for a person (`cluster`, `quickstart`, `git serve`, and
 * `hub up`, which runs the local control plane as a fleet hub on a laptop).
 * Everything else in `src/` runs in a user's cluster or CI and must not reach test machinery.
 */
const MAY_USE_DEV = [
  /^src\/cli\/actions\/cluster(-[a-z-]+)?\.ts$/,
  /^src\/cli\/actions\/quickstart\.ts$/,
  /^src\/cli\/quickstart\//,
  /^src\/cli\/actions\/git-serve\.ts$/,
  // `groundwork hub up`: the embedded control plane as a local hub, in the foreground (docs/hub.md).
  /^src\/cli\/actions\/hub-up\.ts$/,
];

/** Imports into `src/dev/` from a file outside it that is not allowed to use it. */
function devImports(graph: ReadonlyMap<string, readonly ImportEdge[]>): string[] {
  return [...graph.values()]
    .flat()
    .filter(({ from, to }) => to.startsWith('src/dev/') && !from.startsWith('src/dev/'))
    .filter(({ from }) => !MAY_USE_DEV.some((re) => re.test(from)))
    .map(({ from, to }) => `${from} -> ${to}`)
    .sort();
}

describe('who may import src/dev', () => {
  const graph = importGraph(ROOT);

  it('sees the allowed users import it (the rule checks something)', () => {
    const users = [...graph.values()]
      .flat()
      .filter((e) => e.to.startsWith('src/dev/') && !e.from.startsWith('src/dev/'));
    expect(users.map((e) => e.from)).toContain('src/cli/actions/cluster.ts');
  });

  it('is imported only by the CLI commands cluster, quickstart, git serve and hub up', () => {
    expect(devImports(graph)).toEqual([]);
  });

  it('reports an import from anywhere else', () => {
    const planted = new Map([
      ['src/agent/x.ts', [{ from: 'src/agent/x.ts', to: 'src/dev/simulators/olm.ts' }]],
      ['src/cli/actions/plan.ts', [{ from: 'src/cli/actions/plan.ts', to: 'src/dev/git-server.ts' }]],
    ]);
    expect(devImports(planted)).toEqual([
      'src/agent/x.ts -> src/dev/simulators/olm.ts',
      'src/cli/actions/plan.ts -> src/dev/git-server.ts',
    ]);
  });
});
