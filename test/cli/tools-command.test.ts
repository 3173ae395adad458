import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';

// `groundwork tools` covers the tools the product runs; Gitea is test machinery (src/dev/tools) and
// the OCI registry of the tests is Debian's docker-registry, built by nobody.
const cache = mkdtempSync(join(tmpdir(), 'gw-tools-cli-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const env = {
  GROUNDWORK_CACHE_DIR: cache,
  PATH: '/usr/bin:/bin',
  GROUNDWORK_HELM: '',
  GROUNDWORK_KUSTOMIZE: '',
  GROUNDWORK_SOPS: '',
};

describe('groundwork tools', () => {
  it('lists helm, kustomize and sops, and nothing else, without building', async () => {
    const { code, stdout, stderr } = await groundwork(['tools', 'list', '--output', 'json'], { env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { name: string; pinned: string }[];
    expect(rows.map((r) => r.name)).toEqual(['helm', 'kustomize', 'sops']);
  });

  it('refuses to build a tool it does not own, naming the ones it does', async () => {
    for (const name of ['gitea', 'registry']) {
      const { code, stderr } = await groundwork(['tools', 'build', name], { env });
      expect(code).toBe(2);
      expect(stderr).toContain(`${name}: is not a tool Groundwork builds`);
      expect(stderr).toContain('name one of: helm, kustomize, sops');
    }
  });
});
