import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';
import { git } from '../source/git.js';

// Strict values: an unknown key is an error quoting the key, so a file read as an overlay would be
// quoted line by line in the comment.
const PLATFORM = `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ replicas: z.number().optional() }).strict(),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'values', namespace: 'default' }, data: { a: 'b' } });
  },
});
`;

describe('preview of a pull request that links an overlay to a file outside the repository', () => {
  it('shows head failing synth with the link named, and no line of the file in the comment', async () => {
    const secret = `gw-planted-${randomBytes(8).toString('hex')}`;
    const outside = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), 'shadow');
    writeFileSync(outside, `root:${secret}:19000:0:99999:7:::\nadmin:${secret}-2:19000:0:99999:7:::\n`);
    const dir = platformDir(PLATFORM);
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    rmSync(join(dir, 'overlays/dev.yaml'));
    symlinkSync(outside, join(dir, 'overlays/dev.yaml')); // committed as a link: git keeps the target
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'head links the overlay out');

    const args = ['preview', '--dir', dir, '--base', 'main~1', '--head', 'main'];
    const [markdown, json] = await Promise.all([
      groundwork([...args, '-o', 'markdown']),
      groundwork([...args, '-o', 'json']),
    ]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('fails synth (SymlinkOutsideCheckout');
    expect(markdown.stdout).toContain('overlays/dev.yaml: symbolic link leads outside the repository');
    const head = (JSON.parse(json.stdout) as { head: { failure?: { code: string } } }).head;
    expect(head.failure).toMatchObject({ code: 'SymlinkOutsideCheckout' });
    for (const r of [markdown, json]) expect(r.stdout + r.stderr).not.toContain(secret);
  });
});
