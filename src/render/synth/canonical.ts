import { createHash } from 'node:crypto';
import { Document, visit } from 'yaml';

const TOP_LEVEL = ['apiVersion', 'kind', 'metadata', 'spec', 'data', 'stringData'];
const METADATA = ['name', 'namespace', 'labels', 'annotations'];

/**
 * A deep copy with keys in a fixed order: Kubernetes' conventional order for the top level
 * (`apiVersion, kind, metadata, spec, data, ...`) and for metadata (`name, namespace, labels,
 * annotations`), then alphabetical (by UTF-16 code unit, the same on every machine and locale).
 * Array order is meaningful in Kubernetes and is kept.
 */
export function canonicalize<T>(value: T): T {
  return sortValue(value, 0, '') as T;
}

function sortValue(value: unknown, depth: number, parentKey: string): unknown {
  if (Array.isArray(value)) return value.map((v) => sortValue(v, depth + 1, ''));
  if (value === null || typeof value !== 'object') return value;
  const priority = depth === 0 ? TOP_LEVEL : depth === 1 && parentKey === 'metadata' ? METADATA : [];
  const keys = Object.keys(value).sort((a, b) => {
    const pa = priority.indexOf(a);
    const pb = priority.indexOf(b);
    if (pa !== -1 || pb !== -1) return (pa === -1 ? Infinity : pa) - (pb === -1 ? Infinity : pb);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  // fromEntries defines own properties: a `__proto__` key (a legal ConfigMap data key) stays a key
  // instead of setting the prototype, as an assignment would.
  return Object.fromEntries(
    keys.map((k) => [k, sortValue((value as Record<string, unknown>)[k], depth + 1, k)]),
  );
}

/** `sha256:<hex>` of the canonical compact JSON of a value. */
export function contentHash(value: unknown): string {
  return canonicalHash(canonicalize(value));
}

/**
 * `contentHash` of a value `canonicalize` returned (canonicalizing is idempotent, so it is not
 * done again): the same hash, without a second deep copy.
 */
export function canonicalHash(canonical: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical)).digest('hex')}`;
}

/**
 * YAML with fixed formatting (no line folding, 2-space indent), so output is byte-identical everywhere,
 * that reads back as the same JSON under YAML 1.1 readers (kubectl, go-yaml v2, PyYAML) and YAML 1.2
 * readers alike: every string a 1.1 reader would take as a bool, number, null, timestamp or merge key
 * (`"no"`, `"on"`, `"0x1F"`, `"1:20"`, `"<<"`) is quoted, and so is 1.2's octal form (`"0o17"`).
 */
export function toYaml(value: unknown): string {
  const doc = new Document(canonicalize(value), {
    version: '1.1',
    merge: false,
    aliasDuplicateObjects: false,
  });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value !== 'string' || !AMBIGUOUS_ACROSS_VERSIONS.test(node.value)) return;
      node.type = 'QUOTE_DOUBLE';
      // The 1.1 schema prints `<<` through its merge tag whatever the quoting: name the tag.
      if (node.value === '<<') node.tag = 'tag:yaml.org,2002:str';
    },
  });
  return doc.toString({ lineWidth: 0, indent: 2 });
}

// Plain scalars the 1.1 schema's stringifier leaves unquoted but some reader resolves to a non-string:
// 1.2 core octal, the 1.1 merge key and PyYAML's `value` tag.
const AMBIGUOUS_ACROSS_VERSIONS = /^(?:[-+]?0o[0-7]+|<<|=)$/;

/** JSON with 2-space indent and canonical key order. */
export function toJson(value: unknown): string {
  return `${JSON.stringify(canonicalize(value), null, 2)}\n`;
}
