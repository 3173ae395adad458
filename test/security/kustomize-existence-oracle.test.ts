// Issue 31, Low 14: kustomize answers `security; file ... is not in or below` for a file that
// exists outside the kustomization and `no such file` for one that does not, so a repository could
// probe the renderer's files through the error. Groundwork's answer for any path outside the
// kustomization's directories is now one message, whether or not the target exists.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderKustomize } from '../../src/render/kustomize/render-kustomize.js';
import type { RenderOutcome } from '../../src/render/recorded/render-outcome.js';
import { toolPath, useTools } from '../harness/tools.js';

useTools('kustomize');

let kustomize: string;
let root: string;
let checkout: string;
beforeAll(async () => {
  kustomize = await toolPath('kustomize');
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gw-kust-oracle-')));
  checkout = join(root, 'checkout');
  mkdirSync(join(root, 'outside/adir'), { recursive: true });
  // The planted file: what the probe tries to learn exists.
  writeFileSync(join(root, 'outside/exists.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
  writeFileSync(join(root, 'outside/adir/kustomization.yaml'), 'resources: []\n');
  mkdirSync(checkout);
});

let n = 0;
/** Renders a fresh kustomization `app<n>` holding `kustomization` and, optionally, a link to `link`. */
async function render(kustomization: string, link?: string): Promise<RenderOutcome> {
  const app = `app${n++}`;
  mkdirSync(join(checkout, app));
  writeFileSync(join(checkout, app, 'kustomization.yaml'), kustomization.replaceAll('APP', app));
  if (link) symlinkSync(link, join(checkout, app, 'link.yaml'));
  return renderKustomize(
    { engine: 'kustomize', path: 'platform/k', dir: app },
    { dir: checkout, kustomize, limits: { timeoutMs: 30_000, outputCapBytes: 1 << 20 } },
  );
}

/** The answer without the kustomization's own name (each probe gets a fresh directory). */
const answer = (o: RenderOutcome) =>
  o.ok
    ? 'rendered'
    : JSON.stringify({ problem: o.problem, fix: o.fix, field: o.field }).replace(/app\d+/g, 'APP');

describe('a path outside the kustomization: one answer whether it exists or not', () => {
  it.each([
    [
      'resources (a file)',
      (t: string) => `resources:\n- ../../outside/${t}\n`,
      'exists.yaml',
      'missing.yaml',
    ],
    ['resources (a directory)', (t: string) => `resources:\n- ../../outside/${t}\n`, 'adir', 'nodir'],
    [
      'resources (an absolute path)',
      (t: string) => `resources:\n- ROOT/outside/${t}\n`,
      'exists.yaml',
      'missing.yaml',
    ],
    [
      'configMapGenerator files',
      (t: string) => `configMapGenerator:\n- name: c\n  files:\n  - ../../outside/${t}\n`,
      'exists.yaml',
      'missing.yaml',
    ],
    [
      'patches',
      (t: string) => `resources: []\npatches:\n- path: ../../outside/${t}\n`,
      'exists.yaml',
      'missing.yaml',
    ],
  ])('%s', async (_what, kustomization, exists, missing) => {
    const a = await render(kustomization(exists).replace('ROOT', root));
    const b = await render(kustomization(missing).replace('ROOT', root));
    expect(a.ok).toBe(false);
    // The path as the kustomization wrote it may be quoted back; nothing else may differ.
    expect(answer(a).replaceAll(exists, 'TARGET')).toBe(answer(b).replaceAll(missing, 'TARGET'));
    expect(answer(a)).not.toMatch(/no such file|is not in or below|must resolve|file is not directory/);
  });

  it('a symbolic link in the kustomization to an outside file, and a dangling one', async () => {
    const a = await render('resources:\n- link.yaml\n', join(root, 'outside/exists.yaml'));
    const b = await render('resources:\n- link.yaml\n', join(root, 'outside/missing.yaml'));
    expect(a.ok).toBe(false);
    expect(answer(a)).toBe(answer(b));
  });

  it('a file of the kustomization itself still renders, and a missing one there keeps its own message', async () => {
    const ok = await render('configMapGenerator:\n- name: c\n  literals: [a=1]\n');
    expect(ok.ok).toBe(true);
    const missing = await render('resources:\n- cm.yaml\n');
    expect(missing.ok).toBe(false);
    expect(answer(missing)).toContain('no such file');
  });
});
