// Kubernetes' rules for object names, as plain data and a pure check (no cdk8s: the CLI's light
// actions use it for names given as flags).

/**
 * Kubernetes' name rules, as the apiserver applies them per kind (k8s.io/apimachinery
 * `validation.NameIsDNSSubdomain`, `NameIsDNSLabel`, and `path.ValidatePathSegmentName` for RBAC).
 * Anything not listed, custom resources included, is a DNS-1123 subdomain.
 */
export type NameRule = 'dns-label' | 'dns-subdomain' | 'path-segment';

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Kinds (`group/Kind`, core group empty) whose names are DNS-1123 labels: they become DNS names or label values. */
const LABEL_KINDS = new Set(['/Namespace', '/Service', 'project.openshift.io/Project']);
const PATH_SEGMENT_KINDS = new Set(
  ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].map((k) => `rbac.authorization.k8s.io/${k}`),
);

/** The rule the apiserver checks `metadata.name` of a kind with. Pure. */
export function nameRule(group: string, kind: string): NameRule {
  const key = `${group}/${kind}`;
  if (LABEL_KINDS.has(key)) return 'dns-label';
  if (PATH_SEGMENT_KINDS.has(key)) return 'path-segment';
  return 'dns-subdomain';
}

/** Why `name` breaks `rule`, or undefined when it is valid. Pure; the value is quoted, cut at 80 characters. */
export function nameProblem(name: string, rule: NameRule): string | undefined {
  const quoted = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (rule === 'path-segment') {
    if (name === '' || name === '.' || name === '..' || /[/%]/.test(name))
      return `${quoted} is not a valid name: it may not be empty, "." or "..", nor contain "/" or "%"`;
    return undefined;
  }
  const [max, re, what] =
    rule === 'dns-label'
      ? ([63, LABEL, 'a DNS-1123 label'] as const)
      : ([253, SUBDOMAIN, 'a DNS-1123 subdomain'] as const);
  if (name.length <= max && re.test(name)) return undefined;
  return `${quoted} is not ${what}: at most ${max} characters, lower-case letters, digits and '-'${rule === 'dns-subdomain' ? " and '.'" : ''}, starting and ending with a letter or digit`;
}
