import type { ChartLockEntry } from '../render/helm/chart-lock.js';
import { applySplices, type Splice } from './splice.js';
import { scalarText, yamlScalars } from './yaml-scalars.js';

const FIELDS = ['version', 'url', 'digest', 'manifestDigest'] as const;

/**
 * The lock file's text with the entry of (`repo`, `name`, `from`) moved to `entry`: its
 * `version`, `url`, `digest` (and an OCI entry's `manifestDigest`) replaced where they are
 * written, everything else (the header comment, the order, other entries) byte for byte as it
 * was. Undefined when the lock has no such entry, or the entry lacks a field `entry` sets. Pure.
 */
export function editChartLock(
  text: string,
  key: { repo: string; name: string; from: string },
  entry: ChartLockEntry,
): string | undefined {
  const scalars = yamlScalars(text);
  const at = (i: number, field: string) =>
    scalars.find(
      (s) => s.path.length === 3 && s.path[0] === 'charts' && s.path[1] === i && s.path[2] === field,
    );
  for (let i = 0; at(i, 'repo') || at(i, 'name'); i++) {
    if (
      at(i, 'repo')?.value !== key.repo ||
      at(i, 'name')?.value !== key.name ||
      at(i, 'version')?.value !== key.from
    )
      continue;
    const splices: Splice[] = [];
    for (const field of FIELDS) {
      const value = entry[field];
      const old = at(i, field);
      if (value === undefined && old === undefined) continue;
      if (value === undefined || old === undefined) return undefined;
      splices.push({ start: old.start, end: old.end, text: scalarText(value, old.type) });
    }
    return applySplices(text, splices);
  }
  return undefined;
}
