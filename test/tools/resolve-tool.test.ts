import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import { GITEA_RECIPE } from '../../src/dev/tools/gitea-recipe.js';
import { resolveTool } from '../../src/tools/resolve-tool.js';

// Stand-in binaries (shell scripts printing a version) test the lookup order, which is pure
// logic over files; the real tools are exercised by the e2e tests that run them.
const root = mkdtempSync(join(tmpdir(), 'gw-tools-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function script(dir: string, name: string, output: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${output}'\n`);
  chmodSync(path, 0o755);
  return path;
}

const emptyCache = join(root, 'cache');
const base = { GROUNDWORK_CACHE_DIR: emptyCache, PATH: '/usr/bin:/bin' };

describe('resolveTool', () => {
  it('takes GROUNDWORK_HELM when it reports a v3 release', async () => {
    const helm = script(join(root, 'env'), 'helm', 'v3.99.1');
    const tool = await resolveTool('helm', { env: { ...base, GROUNDWORK_HELM: helm }, build: false });
    expect(tool).toMatchObject({ path: helm, version: 'v3.99.1', source: 'env' });
  });

  it('refuses a GROUNDWORK_HELM of another major version instead of falling back', async () => {
    const helm = script(join(root, 'v4'), 'helm', 'v4.0.0');
    const err = await resolveTool('helm', { env: { ...base, GROUNDWORK_HELM: helm }, build: false }).catch(
      (e) => e,
    );
    expect(hasCode(err, 'ToolNotUsable')).toBe(true);
    expect(String(err.fix)).toContain('GROUNDWORK_HELM');
  });

  it('refuses a relative or missing GROUNDWORK_SOPS', async () => {
    for (const value of ['sops', join(root, 'nowhere', 'sops')]) {
      const err = await resolveTool('sops', { env: { ...base, GROUNDWORK_SOPS: value }, build: false }).catch(
        (e) => e,
      );
      expect(hasCode(err, 'ToolNotUsable')).toBe(true);
    }
  });

  it('takes the first fitting binary on PATH, skipping one that does not fit', async () => {
    const old = script(join(root, 'old'), 'kustomize', 'v4.5.7');
    const good = script(join(root, 'good'), 'kustomize', 'v5.8.2');
    const env = { ...base, PATH: `${join(root, 'old')}:relative/dir:${join(root, 'good')}:/usr/bin:/bin` };
    const tool = await resolveTool('kustomize', { env, build: false });
    expect(tool).toMatchObject({ path: good, source: 'path', version: 'v5.8.2' });
    expect(tool.path).not.toBe(old);
  });

  it('with nothing found and no build allowed, says to build a product tool with groundwork tools build', async () => {
    const err = await resolveTool('kustomize', { env: base, build: false }).catch((e) => e);
    expect(hasCode(err, 'ToolNotUsable')).toBe(true);
    expect(String(err.fix)).toContain(
      'run `groundwork tools build kustomize` once, or set GROUNDWORK_KUSTOMIZE',
    );
  });

  it('never takes gitea from PATH (it needs its module source), and says how to build it', async () => {
    script(join(root, 'gitea-bin'), 'gitea', 'Gitea version 1.26.0 built with GNU Make');
    const env = { ...base, PATH: `${join(root, 'gitea-bin')}:/usr/bin:/bin` };
    const err = await resolveTool(GITEA_RECIPE, { env, build: false }).catch((e) => e);
    expect(hasCode(err, 'ToolNotUsable')).toBe(true);
    expect(String(err.fix)).toContain('test/harness/tools.ts builds it on first use');
    expect(String(err.fix)).toContain('GROUNDWORK_GITEA');
  });

  it('takes a cached build with its record, and ignores a cache entry whose record is unreadable', async () => {
    const cache = join(root, 'cache2');
    const dir = join(cache, 'tools', 'sops-v3.13.3');
    script(dir, 'sops', 'sops 3.13.3');
    writeFileSync(join(dir, 'tool.json'), 'not json');
    const env = { ...base, GROUNDWORK_CACHE_DIR: cache };
    expect(hasCode(await resolveTool('sops', { env, build: false }).catch((e) => e), 'ToolNotUsable')).toBe(
      true,
    );
    writeFileSync(
      join(dir, 'tool.json'),
      JSON.stringify({ name: 'sops', version: 'v3.13.3', go: '1.26.8', builtAt: '2026-11-27T00:00:00Z' }),
    );
    expect(await resolveTool('sops', { env, build: false })).toMatchObject({
      path: join(dir, 'sops'),
      source: 'cache',
      version: 'v3.13.3',
    });
  });

  it('probes a binary on PATH once per process, and again once it is replaced', async () => {
    const dir = join(root, 'counted');
    const calls = join(root, 'counted-calls');
    mkdirSync(dir, { recursive: true });
    const helm = join(dir, 'helm');
    writeFileSync(helm, `#!/bin/sh\necho probe >> '${calls}'\necho v2.17.0\n`);
    chmodSync(helm, 0o755);
    const env = { ...base, PATH: `${dir}:/usr/bin:/bin` };
    for (let i = 0; i < 3; i++)
      expect(hasCode(await resolveTool('helm', { env, build: false }).catch((e) => e), 'ToolNotUsable')).toBe(
        true,
      );
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
    writeFileSync(helm, `#!/bin/sh\necho probe >> '${calls}'\necho v3.22.0 # replaced\n`);
    expect(await resolveTool('helm', { env, build: false })).toMatchObject({ path: helm, source: 'path' });
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('runs the version probe with the PATH it was given, not the process one', async () => {
    const helper = script(join(root, 'given-path'), 'report-version', 'v3.40.0');
    const dir = join(root, 'needs-path');
    mkdirSync(dir, { recursive: true });
    const helm = join(dir, 'helm');
    writeFileSync(helm, '#!/bin/sh\nexec report-version\n');
    chmodSync(helm, 0o755);
    const env = { ...base, PATH: `${dir}:${join(root, 'given-path')}:/usr/bin:/bin` };
    expect(helper).toContain('given-path');
    expect(await resolveTool('helm', { env, build: false })).toMatchObject({
      path: helm,
      version: 'v3.40.0',
    });
  });
});
