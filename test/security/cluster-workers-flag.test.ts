// `cluster up --workers N` (issue 32): the flag becomes a count of Node objects to register and
// simulate. Anything but 0 to 20 is refused as an input error before anything starts or is written:
// no negative or huge counts (a flood of nodes), no exponent or hex forms, no other text.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runClusterUp } from '../../src/cli/actions/cluster.js';
import { hasCode } from '../../src/core/errors.js';
import { groundwork } from '../harness/cli.js';

const cache = mkdtempSync(join(tmpdir(), 'gw-workers-cache-'));
const saved = process.env.GROUNDWORK_CACHE_DIR;
process.env.GROUNDWORK_CACHE_DIR = cache;
afterAll(() => {
  if (saved === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
  else process.env.GROUNDWORK_CACHE_DIR = saved;
});

describe('cluster up --workers', () => {
  it.each(['-1', '21', '1e9', '0x10', '2.5', ' 2', '2; rm -rf /', '', '99999999999999999999'])(
    'refuses %j before starting anything',
    async (workers) => {
      const err: unknown = await runClusterUp({ name: 'hostile', workers }).catch((e: unknown) => e);
      expect(hasCode(err, 'InvalidFlag')).toBe(true);
      expect(String(err)).toContain('is not a number of worker nodes from 0 to 20');
      // Nothing was built, started or recorded: the cache directory is as empty as it was.
      expect(readdirSync(cache)).toEqual([]);
    },
  );

  it('the command exits 2 with the flag named', async () => {
    const r = await groundwork(['cluster', 'up', '--name', 'hostile', '--workers', '1e9'], {
      env: { GROUNDWORK_CACHE_DIR: cache },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--workers');
    expect(readdirSync(cache)).toEqual([]);
  });
});
