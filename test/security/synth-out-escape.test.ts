// Issue 31, High 4: `synth --out DIR` wrote outside DIR. An object named with `../` became a file
// path, and a result frame forged through `Object.prototype.toJSON` named overlay `../x`, which
// synth removed and replaced. Every path under DIR now comes from one builder that takes valid
// names only, overlays come from the checkout's own list, and real paths are checked in DIR.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';
import { writeSynthOutput } from '../../src/render/output/write.js';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';

/** Every file and directory under `root` with its content (files) or `dir`, by relative path. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[relative(root, p)] = 'dir';
        walk(p);
      } else out[relative(root, p)] = e.isSymbolicLink() ? 'link' : readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** A scratch area: DIR at `<root>/work/out`, and files outside it that must stay as they are. */
function scratch(): { root: string; out: string; outside: () => Record<string, string> } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gw-out-escape-')));
  mkdirSync(join(root, 'work/x'), { recursive: true });
  mkdirSync(join(root, 'x'), { recursive: true });
  writeFileSync(join(root, 'work/x/keep.txt'), 'mine\n');
  writeFileSync(join(root, 'x/keep.txt'), 'mine too\n');
  writeFileSync(join(root, 'work/keep.yaml'), 'kept\n');
  const out = join(root, 'work/out');
  const outside = () =>
    Object.fromEntries(Object.entries(tree(root)).filter(([p]) => !p.startsWith('work/out')));
  return { root, out, outside };
}

const cm = (name: string, namespace = 'a') =>
  toManifest(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { k: 'v' } },
    'platform/x',
  );
const result = (overlay: string, manifests = [cm('ok')]): SynthResult => ({
  platform: 'p',
  overlay,
  manifests,
  hash: 'sha256:0',
  warnings: [],
});

describe('forged results: nothing outside DIR is written, removed or replaced', () => {
  it.each([
    ['an overlay "../x"', [result('../x')]],
    ['an overlay the synth did not ask for', [result('prod')]],
    ['an object named "../../x"', [result('dev', [cm('../../x')])]],
    ['an object in namespace ".."', [result('dev', [cm('a', '..')])]],
    ['a stage "../../.."', [result('dev', [{ ...cm('a'), stage: '../../..' as 'crds' }])]],
    ['a good overlay, then "../x"', [result('dev'), result('../x')]],
    ['an overlay answered twice', [result('dev'), result('dev')]],
  ])('%s is refused before the first write', async (_what, results) => {
    const { out, outside } = scratch();
    const before = outside();
    const err = await writeSynthOutput(results, out, 'yaml', { overlays: ['dev'] }).catch((e: unknown) => e);
    expect(hasCode(err, 'OutputPathRefused'), String(err)).toBe(true);
    expect(outside()).toEqual(before);
    expect(tree(out)).toEqual({});
  });

  it('a link in DIR that leads out is not followed: the overlay under it is refused', async () => {
    const { root, out, outside } = scratch();
    mkdirSync(out, { recursive: true });
    symlinkSync(join(root, 'x'), join(out, 'clusters'));
    const before = outside();
    const err = await writeSynthOutput([result('clusters/eu')], out, 'yaml', {
      overlays: ['clusters/eu'],
    }).catch((e: unknown) => e);
    expect(hasCode(err, 'OutputPathRefused')).toBe(true);
    expect(outside()).toEqual(before);
  });

  it('a link in place of an overlay directory is replaced, its target untouched', async () => {
    const { root, out, outside } = scratch();
    mkdirSync(out, { recursive: true });
    symlinkSync(join(root, 'x'), join(out, 'dev'));
    const before = outside();
    await writeSynthOutput([result('dev')], out, 'yaml', { overlays: ['dev'] });
    expect(outside()).toEqual(before);
    expect(statSync(join(out, 'dev')).isDirectory()).toBe(true);
    expect(Object.keys(tree(join(out, 'dev'))).sort()).toEqual([
      '03-resources',
      '03-resources/configmap_a_ok.yaml',
      'index.json',
    ]);
  });
});

const PLATFORM = (body: string) => `import { definePlatform, Platform, z } from 'groundwork-gitops';
import { ApiObject, Chart } from 'cdk8s';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    ${body}
  },
});
`;

describe('synth --out through the CLI', () => {
  it('an object named "../../../../x" outside Platform writes nothing outside DIR (its file once landed in DIR/..)', async () => {
    const { out, outside } = scratch();
    const dir = platformDir(
      PLATFORM(
        `new ApiObject(new Chart(scope, 'loose'), 'escape', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '../../../../x', namespace: 'a' } });`,
      ),
    );
    const before = outside();
    const run = await groundwork(['synth', '--dir', dir, '--out', out], { cwd: dir });
    expect(run.code, run.stderr).not.toBe(0);
    expect(outside()).toEqual(before);
  });

  it('a result frame forged through Object.prototype.toJSON to name overlay "../x" deletes and replaces nothing outside DIR', async () => {
    const { out, outside } = scratch();
    const dir = platformDir(
      PLATFORM(`
    Object.defineProperty(Object.prototype, 'toJSON', {
      configurable: true,
      value: function (this: Record<string, unknown>) {
        if (this && this.overlay === 'dev' && Array.isArray(this.manifests)) return { ...this, overlay: '../x' };
        return this;
      },
    });`),
    );
    const before = outside();
    const run = await groundwork(['synth', '--dir', dir, '--out', out], { cwd: dir });
    expect(outside()).toEqual(before);
    // Either the answer is refused, or the forgery never reached it: only DIR/dev may exist.
    if (run.code === 0) expect(Object.keys(tree(out)).filter((p) => !p.startsWith('dev'))).toEqual([]);
    else expect(run.stderr).not.toContain('../x/');
  });

  it('DIR under a symbolic link is written where the link leads, and nothing else changes', async () => {
    const { root, outside } = scratch();
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'work/link'));
    const dir = platformDir(
      PLATFORM(
        `new ApiObject(new Chart(scope, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'a' } });`,
      ),
    );
    const before = Object.fromEntries(Object.entries(outside()).filter(([p]) => !p.startsWith('real')));
    const run = await groundwork(['synth', '--dir', dir, '--out', join(root, 'work/link/out')], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(Object.fromEntries(Object.entries(outside()).filter(([p]) => !p.startsWith('real')))).toEqual(
      before,
    );
    expect(Object.keys(tree(join(root, 'real/out/dev')))).toContain('03-resources/configmap_a_cm.yaml');
  });
});
