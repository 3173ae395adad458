import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../../src/core/data-dir.js';
import type { K8sObject } from '../../src/core/object.js';
import { parseObjects } from '../../src/core/yaml-files.js';

/** The test-only fixtures (see test/fixtures/PROVENANCE.md). */
export const TEST_FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * Absolute path of a fixture. Product data that tests read too lives once, in the package's
 * `data/` (`crds/...`, `update-graphs/graph-data/...`); everything else in `test/fixtures/`.
 */
export function fixturePath(relative: string): string {
  const product = ['crds', 'update-graphs/graph-data'].some(
    (dir) => relative === dir || relative.startsWith(`${dir}/`),
  );
  return product ? dataPath(relative) : join(TEST_FIXTURES, relative);
}

/** Every object in a fixture file (List documents flattened). */
export function fixtureObjects(relative: string): K8sObject[] {
  return parseObjects(readFileSync(fixturePath(relative), 'utf8'), relative);
}

/** The first object in a fixture file. */
export function fixtureObject(relative: string): K8sObject {
  const [first] = fixtureObjects(relative);
  if (!first) throw new Error(`${relative}: no object`);
  return first;
}

/** Any YAML fixture, parsed. */
export function fixtureYaml<T = unknown>(relative: string): T {
  return parse(readFileSync(fixturePath(relative), 'utf8')) as T;
}

/** A deep copy with server-owned metadata removed, ready to create under a new name/namespace. */
export function asNew(obj: K8sObject, metadata: { name: string; namespace?: string }): K8sObject {
  const { status: _status, ...rest } = structuredClone(obj);
  return {
    ...rest,
    metadata: {
      name: metadata.name,
      ...(metadata.namespace ? { namespace: metadata.namespace } : {}),
      labels: obj.metadata.labels ?? {},
    },
  } as K8sObject;
}
