import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

const MAIN = `import { Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Platform(scope, 'platform', { openshiftVersion: '4.16' });
  },
});
`;

describe('synth --out', () => {
  it('refuses a file, or a path under a file, with InvalidFlag and a fix instead of a raw ENOTDIR', async () => {
    const dir = platformDir(MAIN);
    const file = join(mkdtempSync(join(tmpdir(), 'gw-out-')), 'manifests.yaml');
    writeFileSync(file, 'x\n');
    for (const out of [file, join(file, 'sub')]) {
      const r = await groundwork(['synth', '--dir', dir, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(/ENOTDIR|EEXIST/);
      expect(r.stderr).toContain(`--out ${out}:`);
      expect(r.stderr).toContain('fix: pass a directory');
    }
  });
});
