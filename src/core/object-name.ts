// Kubernetes' rules for object names and API shapes, and the one way Groundwork derives its own
// object names: plain data and pure checks (no cdk8s, no client), so every layer can check a name
// where it enters.
import { createHash } from 'node:crypto';

/**
 * Kubernetes' name rules, as the apiserver applies them per kind (k8s.io/apimachinery
 * `validation.NameIsDNSSubdomain`, `NameIsDNSLabel`, and `path.ValidatePathSegmentName` for RBAC).
 * Anything not listed, custom resources included, is a DNS-1123 subdomain.
 */
export type NameRule = 'dns-label' | 'dns-subdomain' | 'path-segment';

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** DNS-1035 label: a DNS-1123 label that starts with a letter (API versions, lower-cased kinds). */
const LABEL_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

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

/** `JSON.stringify` of a value cut at 80 characters: how every message quotes a name. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

/**
 * Why `name` breaks `rule`, or undefined when it is valid. Pure; the value is quoted, cut at 80
 * characters. The weakest rule, `path-segment`, is what any name must pass to be a URL path
 * segment: every name valid by any rule passes it.
 */
export function nameProblem(name: string, rule: NameRule): string | undefined {
  const quoted = quoteName(name);
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

/** Whether `name` is valid by `rule` (`nameProblem` finds nothing). Pure. */
export function isValidName(name: string, rule: NameRule): boolean {
  return nameProblem(name, rule) === undefined;
}

/**
 * Why `apiVersion` is not `<group>/<version>` or `<version>` as the apiserver serves them (the
 * group a DNS-1123 subdomain, the version a DNS-1035 label such as `v1beta1`), or undefined. Pure.
 */
export function apiVersionProblem(apiVersion: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const [group, version] =
    slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const groupOk = group === '' ? slash < 0 : group.length <= 253 && SUBDOMAIN.test(group);
  if (groupOk && version.length <= 63 && LABEL_1035.test(version)) return undefined;
  return `apiVersion ${quoteName(apiVersion)} is not <group>/<version> (a DNS-1123 subdomain and a version such as v1 or v1beta1)`;
}

/**
 * Why `kind` is not a kind the apiserver could serve (CRD rule: its lower case is a DNS-1035
 * label, at most 63 characters; kinds are written CamelCase, so `-` is refused too), or undefined.
 */
export function kindProblem(kind: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9]{0,62}$/.test(kind)) return undefined;
  return `kind ${quoteName(kind)} is not a kind: a letter, then letters and digits, at most 63 characters`;
}

/** The longest name `derivedName` returns: a DNS-1123 label, valid for every kind. */
export const DERIVED_NAME_MAX = 63;

/**
 * The one way Groundwork derives its own object names (PlatformSync `<platform>-<overlay>`, the
 * inventory ConfigMap, the leader Lease, bootstrap's objects) from free text: the parts joined by
 * `-`, lower-cased, every run of other characters than `[a-z0-9]` made one `-`, no `-` at either
 * end. Longer than 63 characters, it is cut to 54 and ends in `-` and 8 hex digits of the
 * SHA-256 of the whole normalized text, so long names stay distinct. Empty, it is `gw-` and that
 * hash. Always a DNS-1123 label (valid for every kind), deterministic; does not make two inputs
 * that normalize alike (`a/b`, `a-b`) differ: existing objects keep their names.
 *
 * @example
 * derivedName(['shop', 'clusters/eu-1']) // 'shop-clusters-eu-1'
 */
export function derivedName(parts: readonly string[]): string {
  const raw = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (raw === '') return `gw-${sha8(parts.join('\u0000'))}`;
  if (raw.length <= DERIVED_NAME_MAX) return raw;
  const hash = sha8(raw);
  return `${raw.slice(0, DERIVED_NAME_MAX - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}

function sha8(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** The PlatformSync of a platform and overlay: `<platform>-<overlay>` (`derivedName`). */
export function platformSyncName(platform: string, overlay: string): string {
  return derivedName([platform, overlay]);
}

/** The inventory ConfigMap of a platform and overlay: `gw-inventory-<platform>-<overlay>` (`derivedName`). */
export function inventoryName(platform: string, overlay: string): string {
  return derivedName(['gw-inventory', platform, overlay]);
}

/** The agent's leader-election Lease: `groundwork-<sync name or overlay>` (`derivedName`). */
export function leaseName(syncOrOverlay: string): string {
  return derivedName(['groundwork', syncOrOverlay]);
}
