// Where a chart value came from: the construct's values, a values file, or a chart's values.yaml.
import { isPlainObject } from '../../core/object.js';

/** One source of a chart's values, as helm layers them. */
export type ValueLayer =
  | { kind: 'values'; values: unknown }
  | { kind: 'valuesFile'; index: number; file: string; values: unknown }
  /** A chart's values.yaml (`values.yaml`, `charts/sub/values.yaml`), its values under `prefix`. */
  | { kind: 'chart'; file: string; prefix: string[]; values: unknown };

/** A value's JSON type, named as people say it; the value itself is never shown. */
export type ValueType = 'a string' | 'a number' | 'a boolean' | 'null' | 'a list' | 'a map';

export type ValueSource =
  | { set: true; layer: ValueLayer; type: ValueType; value: unknown }
  | {
      set: false;
      /** The longest leading part of the path that some layer sets, if any (`db` of `db.host`). */
      deepest?: { path: string[]; layer: ValueLayer; type: ValueType };
    };

/**
 * Where `path` (in the top chart's values) takes its value, the way helm merges them: the
 * construct's `values` over the values files (later first) over the top chart's values.yaml over
 * each subchart's own; a subchart's `global.*` also from the top's `global`. Pure.
 * @param layers highest precedence first
 */
export function chartValueSource(path: readonly string[], layers: readonly ValueLayer[]): ValueSource {
  const candidates = [path, ...globalPath(path, layers)];
  for (const layer of layers)
    for (const p of candidates) {
      const found = valueAt(layer, p);
      if (found.found) return { set: true, layer, type: typeOf(found.value), value: found.value };
    }
  for (let len = path.length - 1; len > 0; len--)
    for (const layer of layers) {
      const found = valueAt(layer, path.slice(0, len));
      if (found.found)
        return { set: false, deepest: { path: path.slice(0, len), layer, type: typeOf(found.value) } };
    }
  return { set: false };
}

/** A subchart's `sub.global.x` is the top's `global.x` as well (helm copies globals down). */
function globalPath(path: readonly string[], layers: readonly ValueLayer[]): string[][] {
  const subchartPrefixes = layers.flatMap((l) =>
    l.kind === 'chart' && l.prefix.length > 0 ? [l.prefix] : [],
  );
  for (const prefix of subchartPrefixes)
    if (startsWith(path, prefix) && path[prefix.length] === 'global') return [path.slice(prefix.length)];
  return [];
}

function valueAt(layer: ValueLayer, path: readonly string[]): { found: boolean; value?: unknown } {
  const prefix = layer.kind === 'chart' ? layer.prefix : [];
  if (!startsWith(path, prefix)) return { found: false };
  let at: unknown = layer.values;
  for (const key of path.slice(prefix.length)) {
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isPlainObject(at) && Object.hasOwn(at, key)) at = at[key];
    else return { found: false };
  }
  return { found: at !== undefined, value: at };
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

export function typeOf(value: unknown): ValueType {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : 'a map';
}
