import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';
import { git } from '../source/git.js';

const platform = (imports: string, value: string) => `${imports}
import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'values', namespace: 'default' }, data: { value: String(${value}) } });
  },
});
`;

describe('preview of a pull request whose platform imports a file outside the checkout', () => {
  it('shows head failing synth with the import named, and the secret nowhere: not in the comment, not in the cache', async () => {
    // The secret: in the environment of `groundwork preview` (a CI job's token) and in a file outside.
    const secret = `gw-planted-${randomBytes(8).toString('hex')}`;
    const outside = mkdtempSync(join(tmpdir(), 'gw-outside-'));
    writeFileSync(join(outside, 'ci-token.json'), JSON.stringify({ token: secret }));
    const dir = platformDir(platform('', "'base'"));
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    // Head imports the file outside (where a CI runner keeps its credentials).
    writeFileSync(
      join(dir, 'platform/main.ts'),
      platform(`import values from '${outside}/ci-token.json';`, 'JSON.stringify(values)'),
    );
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'head reads a token');

    const cache = mkdtempSync(join(tmpdir(), 'gw-cache-'));
    const env = { GROUNDWORK_GIT_TOKEN: secret, GROUNDWORK_CACHE_DIR: cache };
    const args = ['preview', '--dir', dir, '--base', 'main~1', '--head', 'main'];
    const [markdown, json] = await Promise.all([
      groundwork([...args, '-o', 'markdown'], { env }),
      groundwork([...args, '-o', 'json'], { env }),
    ]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('fails synth (ImportOutsideCheckout');
    expect(markdown.stdout).toContain(`platform/main.ts:1: import '${outside}/ci-token.json' resolves to`);
    const failure = (JSON.parse(json.stdout) as { head: { failure?: { code: string; fix?: string } } }).head
      .failure;
    expect(failure).toMatchObject({ code: 'ImportOutsideCheckout' });
    expect(failure?.fix).toMatch(/copy the file into the repository/);
    for (const r of [markdown, json]) expect(r.stdout + r.stderr).not.toContain(secret);
    const cached = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(cached.length).toBeGreaterThan(0); // base's bundle: the cache was used
    for (const e of cached) expect(readFileSync(join(e.parentPath, e.name), 'latin1')).not.toContain(secret);
  });
});
