import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { K8sObject } from '../../src/core/object.js';
import { fixturePath } from '../harness/fixtures.js';

/** Parses one inline YAML document into an object. */
export function obj(yaml: string): K8sObject {
  return parse(yaml) as K8sObject;
}

/** Reads one fixture file as a single YAML document. */
export function readFixture(path: string): unknown {
  return parse(readFileSync(fixturePath(path), 'utf8'));
}

/** Reads a fixture holding one object. */
export function readObject(path: string): K8sObject {
  return readFixture(path) as K8sObject;
}

/** Reads a fixture holding a `kind: List` or `<Kind>List` (or a single object) as a list of objects. */
export function readItems(path: string): K8sObject[] {
  const doc = readFixture(path) as K8sObject & { items?: K8sObject[] };
  return doc.kind.endsWith('List') ? (doc.items ?? []) : [doc];
}

/** A deep copy of `o` with `edit` applied, to derive variants without touching fixtures. */
export function variant<T>(o: T, edit: (copy: T) => void): T {
  const copy = structuredClone(o);
  edit(copy);
  return copy;
}

/**
 * One scenario from test/fixtures/cluster-state, read as the cluster dumped it. `now` is oc's for
 * its examples (status.go `Run`): the latest `lastTransitionTime` of the ClusterVersion's and the
 * ClusterOperators' conditions.
 */
export function scenario(name: string) {
  const [clusterVersion] = readItems(`cluster-state/${name}/cv.yaml`);
  const clusterOperators = readItems(`cluster-state/${name}/co.yaml`);
  const times = [clusterVersion!, ...clusterOperators].flatMap((o) =>
    ((o.status as { conditions?: { lastTransitionTime: string }[] } | undefined)?.conditions ?? []).map((c) =>
      Date.parse(c.lastTransitionTime),
    ),
  );
  return {
    clusterVersion: clusterVersion as K8sObject,
    clusterOperators,
    machineConfigPools: readItems(`cluster-state/${name}/mcp.yaml`),
    machineConfigs: existsSync(fixturePath(`cluster-state/${name}/mc.yaml`))
      ? readItems(`cluster-state/${name}/mc.yaml`)
      : [],
    now: new Date(Math.max(...times)),
  };
}
