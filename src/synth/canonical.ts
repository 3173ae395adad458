import { createHash } from 'node:crypto';
import { stringify } from 'yaml';

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
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = sortValue((value as Record<string, unknown>)[k], depth + 1, k);
  return out;
}

/** `sha256:<hex>` of the canonical compact JSON of a value. */
export function contentHash(value: unknown): string {
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonicalize(value)))
    .digest('hex')}`;
}

/** YAML with fixed formatting (no line folding, 2-space indent), so output is byte-identical everywhere. */
export function toYaml(value: unknown): string {
  return stringify(canonicalize(value), { lineWidth: 0, indent: 2, aliasDuplicateObjects: false });
}

/** JSON with 2-space indent and canonical key order. */
export function toJson(value: unknown): string {
  return `${JSON.stringify(canonicalize(value), null, 2)}\n`;
}
