import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GroundworkError } from '../../../src/core/errors.js';
import { loadProjectConfig } from '../../../src/project/config.js';
import { loadOverlayValues } from '../../../src/render/synth/overlays.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-yaml-errors-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

// The "billion laughs": each level doubles the references to the last.
const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
  'version: "1"',
].join('\n');

describe('YAML input errors name their file', () => {
  it('refuses an alias bomb in an overlay, naming the overlay file', async () => {
    const dir = repo({ 'overlays/bomb.yaml': ALIAS_BOMB });
    const err = await loadOverlayValues(join(dir, 'overlays'), 'bomb', z.object({}).passthrough(), dir).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SynthValidationError);
    const [issue] = (err as SynthValidationError).issues;
    expect(issue?.path).toBe('overlays/bomb.yaml');
    expect(issue?.message).toMatch(/Excessive alias count/);
  });

  it('names the overlay file and line of a syntax error', async () => {
    const dir = repo({ 'overlays/dev.yaml': 'version: "1"\npool:\n  a: [1, 2\n' });
    const err = await loadOverlayValues(join(dir, 'overlays'), 'dev', z.object({}).passthrough(), dir).catch(
      (e: unknown) => e,
    );
    expect((err as SynthValidationError).issues[0]?.path).toMatch(/^overlays\/dev\.yaml:\d+:\d+$/);
  });

  it('names groundwork.yaml and the line of its syntax error, and refuses an alias bomb there', async () => {
    const broken = await loadProjectConfig(repo({ 'groundwork.yaml': 'name: x\noverlays: [a\n' })).catch(
      (e: unknown) => e,
    );
    expect(broken).toBeInstanceOf(GroundworkError);
    expect((broken as GroundworkError).code).toBe('InvalidConfig');
    expect((broken as GroundworkError).subject).toMatch(/^groundwork\.yaml:\d+:\d+$/);
    const bomb = await loadProjectConfig(repo({ 'groundwork.yaml': `${ALIAS_BOMB}\nname: x\n` })).catch(
      (e: unknown) => e,
    );
    expect((bomb as GroundworkError).subject).toBe('groundwork.yaml');
    expect((bomb as GroundworkError).message).toMatch(/Excessive alias count/);
  });
});
