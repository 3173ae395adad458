import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('../..', import.meta.url));
// Only the rule under test runs: linting every source file with all rules took 11 s of CPU, this 6 s.
const eslint = new ESLint({ cwd, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${cwd}/${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (STYLE.md), enforced by eslint', () => {
  it.each([
    ['src/cluster/x.ts', "import { KubeConfig } from '@kubernetes/client-node';", 0],
    ['src/agent/x.ts', "import { KubeConfig } from '@kubernetes/client-node';", 1],
    ['src/apply/x.ts', "import { KubeConfig } from '@kubernetes/client-node/dist/config.js';", 1],
    ['src/source/x.ts', "import git from 'isomorphic-git';", 0],
    ['src/render/x.ts', "import git from 'isomorphic-git';", 1],
    ['src/cluster/x.ts', "import http from 'isomorphic-git/http/node';", 1],
    ['src/plan/x.ts', "import { readFile } from 'node:fs/promises';", 1],
    ['src/health/x.ts', "import { request } from 'node:https';", 1],
    ['src/plan/x.ts', "import { createHash } from 'node:crypto';", 0],
    ['src/dev/simulators/x.ts', "import { updateCandidates } from '../../olm/candidates.js';", 1],
    ['src/dev/simulators/x.ts', "import type { UpdateGraph } from '../../cluster-version/graph.js';", 1],
    ['src/dev/simulators/x.ts', "import { UNIT_SUFFIXES } from '../../machine-config/rules.js';", 1],
    ['src/dev/simulators/x.ts', "import { isPlainObject } from '../../core/object.js';", 0],
    ['src/dev/simulators/x.ts', "import { KubeConfig } from '@kubernetes/client-node';", 1],
    ['src/agent/x.ts', "import { updateCandidates } from '../../olm/candidates.js';", 0],
  ])('%s: %s -> %i problem(s)', async (file, code, count) => {
    expect(await problems(file, `${code}\nexport {};\n`)).toHaveLength(count);
  });

  it('holds for every source file', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const found = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${r.filePath}: ${m.message}`),
    );
    expect(found).toEqual([]);
  }, 120_000);
});
