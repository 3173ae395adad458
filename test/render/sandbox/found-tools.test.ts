import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foundTools } from '../../../src/render/sandbox/found-tools.js';

/** A stand-in helm at a path of its own that reports a fitting version. */
function helmAt(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gw-found-${name}-`));
  const file = join(dir, 'helm');
  writeFileSync(file, '#!/bin/sh\necho v3.22.0\n');
  chmodSync(file, 0o755);
  return realpathSync(file);
}

describe('foundTools', () => {
  it('is found once while the environment stays, and looked for again when GROUNDWORK_HELM changes', async () => {
    const [a, b] = [helmAt('a'), helmAt('b')];
    const cache = mkdtempSync(join(tmpdir(), 'gw-found-cache-'));
    const env = (helm: string) => ({
      PATH: '/nonexistent',
      GROUNDWORK_HELM: helm,
      GROUNDWORK_CACHE_DIR: cache,
    });
    const first = foundTools(env(a));
    expect(foundTools(env(a))).toBe(first);
    expect(await first).toEqual({ helm: a });
    expect(await foundTools(env(b))).toEqual({ helm: b });
  });
});
