import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadCatalog, type Catalog } from '../../src/olm/index.js';
import { TEST_FIXTURES } from '../harness/fixtures.js';

/** The test fixtures (never edited: derive variants in tests). */
export const FIXTURES = `${TEST_FIXTURES}`;

export type CatalogFixture =
  | 'registry-testdata-latest'
  | 'registry-testdata-old'
  | 'dependencies'
  | 'ecr-secret-operator'
  | 'nfs-provisioner-operator'
  | 'kepler-operator'
  | 'alloydb-omni-operator'
  | 'rabbitmq-operators';

export function catalogFixturePath(name: CatalogFixture): string {
  return `${FIXTURES}catalogs/${name}.yaml`;
}

export function loadCatalogFixture(name: CatalogFixture): Promise<Catalog> {
  return loadCatalog(catalogFixturePath(name));
}

export async function readFixture(relative: string): Promise<string> {
  return readFile(`${FIXTURES}${relative}`, 'utf8');
}

/** Compares with `test/olm/golden/<name>`; `UPDATE_GOLDEN=1` rewrites it. */
export async function expectGolden(name: string, actual: string): Promise<void> {
  const path = fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
  if (process.env['UPDATE_GOLDEN']) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, actual);
    return;
  }
  expect(actual).toBe(await readFile(path, 'utf8'));
}
