import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mergeGraphs } from '../../src/cluster-version/graph.js';
import { planUpdatePath } from '../../src/cluster-version/path.js';
import { renderUpdatePath, updatePathMarkdown } from '../../src/cluster-version/path-render.js';
import { cincinnati } from './fixtures.js';

const GOLDEN = fileURLToPath(new URL('./golden/', import.meta.url));

/** Compares with `golden/<name>`; `UPDATE_GOLDEN=1` rewrites it. */
function expectGolden(name: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(`${GOLDEN}${name}`, actual);
  }
  expect(actual).toBe(readFileSync(`${GOLDEN}${name}`, 'utf8'));
}

describe('path rendering', () => {
  const merged = mergeGraphs([cincinnati('stable-4.8.json'), cincinnati('stable-4.9.json')]);

  it('renders a multi-minor path as text and Markdown', () => {
    const path = planUpdatePath(merged, { from: '4.7.0', to: '4.9.53' });
    expectGolden('4.7.0-to-4.9.53.txt', `${renderUpdatePath(path)}\n`);
    expectGolden('4.7.0-to-4.9.53.md', updatePathMarkdown(path));
  });

  it('renders accepted risks and refusals', () => {
    const stable48 = cincinnati('stable-4.8.json');
    const risky = planUpdatePath(stable48, {
      from: '4.7.0',
      to: '4.7.4',
      acceptedRisks: ['VSphereNodeNameChanges'],
    });
    expect(renderUpdatePath(risky)).toBe(
      'Update 4.7.0 -> 4.7.4 in 1 step:\n  1. 4.7.0 -> 4.7.4  patch  accepted risks: VSphereNodeNameChanges',
    );
    const refused = planUpdatePath(stable48, { from: '4.7.0', to: '4.7.10', channel: 'stable-4.7' });
    expect(renderUpdatePath(refused)).toBe(
      'No update from 4.7.0 to 4.7.10 (NotInChannel): 4.7.10 is not in channel stable-4.7',
    );
    expectGolden(
      'refused-4.7.0-to-4.7.4.md',
      updatePathMarkdown(planUpdatePath(stable48, { from: '4.7.0', to: '4.7.4' })),
    );
  });

  it('keeps renderings out of JSON', () => {
    const path = planUpdatePath(cincinnati('candidate-4.12-multi.json'), {
      from: '4.12.0-rc.3',
      to: '4.12.0-rc.4',
    });
    expect(JSON.parse(JSON.stringify(path))).toEqual({
      ok: true,
      from: '4.12.0-rc.3',
      to: '4.12.0-rc.4',
      steps: [
        {
          from: '4.12.0-rc.3',
          to: '4.12.0-rc.4',
          kind: 'patch',
          image:
            'quay.io/openshift-release-dev/ocp-release@sha256:f7f292ebe21e88c518fc51db62f915657efa8e71d483c431580a4d0e63b8c3c1',
        },
      ],
    });
  });
});
