// The apiserver's name rules applied to a rendered chart's or kustomization's objects: pure.
import { apiVersionProblem, kindProblem, nameProblem, nameRule, quoteName } from '../../core/object-name.js';
import { splitApiVersion, type K8sObject } from '../../core/object.js';

/** Why the apiserver would refuse a rendered object's identity. */
export interface RenderedNameProblem {
  field: 'apiVersion' | 'kind' | 'metadata.name' | 'metadata.namespace';
  message: string;
  fix: string;
}

/**
 * The problems of a rendered object's identity: `apiVersion` and `kind` by the API's shapes
 * (`apiVersionProblem`, `kindProblem`), `metadata.name` by its kind's rule (`nameRule`) and
 * `metadata.namespace` (a DNS-1123 label), as `validateObjectNames` finds them for constructs: a
 * chart is held to the rules of any construct, where its output enters (before plan, before any
 * name becomes a file name or a request path). Pure; values are quoted cut at 80 characters.
 */
export function renderedNameProblems(
  object: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>,
): RenderedNameProblem[] {
  const problems: RenderedNameProblem[] = [];
  const template = 'fix the template (or the kustomization) that writes it';
  const api = apiVersionProblem(object.apiVersion);
  if (api) problems.push({ field: 'apiVersion', message: api, fix: template });
  const kind = kindProblem(object.kind);
  if (kind) problems.push({ field: 'kind', message: kind, fix: template });
  const name = nameProblem(
    object.metadata.name,
    nameRule(splitApiVersion(object.apiVersion).group, object.kind),
  );
  if (name)
    problems.push({
      field: 'metadata.name',
      message: `${kind ? 'the object' : object.kind} name ${name}`,
      fix: 'fix the template or the value that sets the name (nameOverride, fullnameOverride, the release name)',
    });
  const ns = object.metadata.namespace;
  const nsProblem = ns === undefined ? undefined : nameProblem(ns, 'dns-label');
  if (nsProblem)
    problems.push({
      field: 'metadata.namespace',
      message: `${kind ? 'the object' : object.kind} ${quoteName(object.metadata.name)}: namespace ${nsProblem}`,
      fix: "fix the chart's namespace (the construct's namespace, or the template that sets metadata.namespace)",
    });
  return problems;
}
