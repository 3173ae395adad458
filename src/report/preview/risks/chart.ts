import semver from 'semver';
import type { RenderedChart } from '../../../render/helm/rendered-chart.js';
import type { ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';

/**
 * Risk notes for Helm charts whose version or values change between base and head (paired by
 * construct path), each naming the chart, the construct and how many of its objects change:
 * `ChartVersion` (`high` for a new major version or a downgrade, else `medium`) and `ChartValues`
 * (`low`: the same chart with other values). A chart new in head or gone from it is left to the
 * objects' own notes. Pure.
 */
export function chartRisks(
  base: readonly RenderedChart[],
  head: readonly RenderedChart[],
  pairs: readonly ManifestPair[],
): RiskNote[] {
  const before = new Map(base.map((c) => [c.path, c] as const));
  const notes: RiskNote[] = [];
  for (const chart of head) {
    const old = before.get(chart.path);
    if (!old) continue;
    const changed = pairs.filter(
      (p) =>
        p.action !== 'unchanged' &&
        ((p.head ?? p.base)!.source === chart.path || p.base?.source === chart.path),
    ).length;
    const objects = `${changed} object${changed === 1 ? '' : 's'} of it change${changed === 1 ? 's' : ''}`;
    const name = chart.repo ? `${chart.chart} (${chart.repo})` : chart.chart;
    if (old.version !== chart.version) {
      const [a, b] = [semver.coerce(old.version ?? ''), semver.coerce(chart.version ?? '')];
      const major = !a || !b || a.major !== b.major || semver.lt(b, a);
      notes.push({
        severity: major ? 'high' : 'medium',
        code: 'ChartVersion',
        subject: `chart ${chart.path}`,
        source: chart.path,
        message: `chart ${name} goes from ${old.version ?? '(no version)'} to ${chart.version ?? '(no version)'}${major ? (a && b && semver.lt(b, a) ? ' (a downgrade)' : ' (a new major version: read its upgrade notes)') : ''}; ${objects}`,
      });
    } else if (old.valuesHash !== chart.valuesHash) {
      notes.push({
        severity: 'low',
        code: 'ChartValues',
        subject: `chart ${chart.path}`,
        source: chart.path,
        message: `the values of chart ${name} ${chart.version ?? ''} change; ${objects}`.replace(/  +/g, ' '),
      });
    }
  }
  return notes;
}
