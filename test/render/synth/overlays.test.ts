import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GroundworkError } from '../../../src/core/errors.js';
import { listOverlays, loadOverlayValues } from '../../../src/render/synth/overlays.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-overlays-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const schema = z
  .object({
    version: z.string(),
    pool: z
      .object({ maxUnavailable: z.number().int().min(1), windows: z.array(z.string()).default([]) })
      .strict(),
  })
  .strict();

describe('overlays', () => {
  it('merges an overlay over the one it extends (objects by key, lists replace)', async () => {
    const dir = repo({
      'overlays/prod.yaml': 'version: "4.14.38"\npool:\n  maxUnavailable: 1\n  windows: [sat]\n',
      'overlays/clusters/eu.yaml': 'extends: prod\npool:\n  windows: [sun]\n',
    });
    expect(await listOverlays(join(dir, 'overlays'))).toEqual(['clusters/eu', 'prod']);
    expect(await loadOverlayValues(join(dir, 'overlays'), 'clusters/eu', schema, dir)).toEqual({
      version: '4.14.38',
      pool: { maxUnavailable: 1, windows: ['sun'] },
    });
  });

  it('names the overlay file, the line and the key of every bad value', async () => {
    const dir = repo({
      'overlays/prod.yaml': 'version: "4.14.38"\npool:\n  maxUnavailable: 1\n',
      'overlays/clusters/eu.yaml': 'extends: prod\npool:\n  maxUnavailable: 0\n  extra: true\nversion: 414\n',
    });
    const err = await loadOverlayValues(join(dir, 'overlays'), 'clusters/eu', schema, dir).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SynthValidationError);
    const where = (err as SynthValidationError).issues.map((i) => `${i.path} ${i.field}`).sort();
    expect(where).toEqual([
      'overlays/clusters/eu.yaml:3 pool.maxUnavailable',
      'overlays/clusters/eu.yaml:4 pool.extra',
      'overlays/clusters/eu.yaml:5 version',
    ]);
  });

  it('reports a missing required key at the overlay file, an unknown overlay with the known ones, and extends cycles', async () => {
    const dir = repo({
      'overlays/a.yaml': 'extends: b\n',
      'overlays/b.yaml': 'extends: a\n',
      'overlays/dev.yaml': 'pool:\n  maxUnavailable: 2\n',
    });
    const missing = (await loadOverlayValues(join(dir, 'overlays'), 'dev', schema, dir).catch(
      (e: unknown) => e,
    )) as SynthValidationError;
    expect(missing.issues.map((i) => `${i.path} ${i.field}`)).toEqual(['overlays/dev.yaml version']);
    const unknown = (await loadOverlayValues(join(dir, 'overlays'), 'prod', schema, dir).catch(
      (e: unknown) => e,
    )) as GroundworkError;
    expect(unknown.code).toBe('UnknownOverlay');
    expect(unknown.fix).toBe('use one of: a, b, dev');
    const cycle = (await loadOverlayValues(join(dir, 'overlays'), 'a', schema, dir).catch(
      (e: unknown) => e,
    )) as GroundworkError;
    expect(cycle.message).toContain('extends cycle: a -> b -> a');
  });
});
