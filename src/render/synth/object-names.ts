import { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { nameProblem, nameRule } from '../../core/object-name.js';
import { Validation } from './validation.js';

/**
 * Records a validation error, at the construct's path, for every ApiObject under `scope` whose
 * `metadata.name` (or `metadata.namespace`, a DNS-1123 label) the apiserver would refuse. Does not
 * check `generateName`, nor names the server would accept but a controller would not.
 */
export function validateObjectNames(scope: IConstruct): void {
  for (const obj of scope.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject)) {
    const group = obj.apiGroup === 'core' ? '' : obj.apiGroup;
    const rule = nameRule(group, obj.kind);
    const problem = nameProblem(obj.name, rule);
    if (problem)
      Validation.error(
        obj,
        'metadata.name',
        `${obj.kind} name ${problem}`,
        rule === 'path-segment'
          ? 'remove "/" and "%" from the name'
          : `use lower-case letters, digits and '-', e.g. ${JSON.stringify(suggest(obj.name))}`,
      );
    const ns = obj.metadata.namespace;
    const nsProblem = ns === undefined ? undefined : nameProblem(ns, 'dns-label');
    if (nsProblem)
      Validation.error(obj, 'metadata.namespace', `namespace ${nsProblem}`, 'name an existing Namespace');
  }
}

/** A valid-looking name from an invalid one (lower case, runs of other characters as '-'). */
function suggest(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
      .slice(0, 63) || 'name'
  );
}
