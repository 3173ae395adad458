// The apiserver's name rules applied to a rendered chart's objects: pure.
import { nameProblem, nameRule } from '../../core/name-rules.js';
import type { K8sObject } from '../../core/object.js';

/** Why the apiserver would refuse a rendered object's name or namespace. */
export interface RenderedNameProblem {
  field: 'metadata.name' | 'metadata.namespace';
  message: string;
  fix: string;
}

/**
 * The problems of a rendered object's `metadata.name` (by its kind's rule: `nameRule`) and
 * `metadata.namespace` (a DNS-1123 label), as `validateObjectNames` finds them for constructs: a
 * chart is held to the rules of any construct, before plan rather than at apply. Pure; values are
 * quoted cut at 80 characters (`nameProblem`).
 */
export function renderedNameProblems(
  object: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>,
): RenderedNameProblem[] {
  const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0]! : '';
  const problems: RenderedNameProblem[] = [];
  const name = nameProblem(object.metadata.name, nameRule(group, object.kind));
  if (name)
    problems.push({
      field: 'metadata.name',
      message: `${object.kind} name ${name}`,
      fix: 'fix the template or the value that sets the name (nameOverride, fullnameOverride, the release name)',
    });
  const ns = object.metadata.namespace;
  const nsProblem = ns === undefined ? undefined : nameProblem(ns, 'dns-label');
  if (nsProblem)
    problems.push({
      field: 'metadata.namespace',
      message: `${object.kind} ${JSON.stringify(object.metadata.name.slice(0, 80))}: namespace ${nsProblem}`,
      fix: "fix the chart's namespace (the construct's namespace, or the template that sets metadata.namespace)",
    });
  return problems;
}
