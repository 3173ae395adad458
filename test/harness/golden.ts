import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

/**
 * Compares `actual` with the golden file at `path` (absolute). With UPDATE_GOLDEN=1 the file is
 * (re)written instead; a missing golden file fails the test, so CI never passes by writing one.
 */
export function expectGolden(path: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path))
    throw new Error(`golden file ${path} is missing: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
