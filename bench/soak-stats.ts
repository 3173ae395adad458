// The pure parts of `bench soak`: least-squares slopes of memory over time and the report's lines.

/** One minute's reading of the agent process. */
export interface SoakSample {
  /** Minutes since the agent started. */
  minute: number;
  rssMb: number;
  heapMb: number;
}

/** What the load did: edits made and restored, commits pushed and applied, apiserver restarts. */
export interface SoakCounts {
  editsRestored: number;
  editsTotal: number;
  /** Slowest edit → restored, in ms (0 when no edit). */
  slowestRestoreMs: number;
  commitsApplied: number;
  commitsTotal: number;
  restarts: number;
}

/**
 * Least-squares slope of `value` over `minute`, in units per hour, using the samples at or after
 * `fromMinute`. Undefined when fewer than two such samples or all at the same minute.
 */
export function slopePerHour(
  samples: readonly SoakSample[],
  value: (s: SoakSample) => number,
  fromMinute = 5,
): number | undefined {
  const points = samples.filter((s) => s.minute >= fromMinute);
  if (points.length < 2) return undefined;
  const meanX = points.reduce((sum, s) => sum + s.minute, 0) / points.length;
  const meanY = points.reduce((sum, s) => sum + value(s), 0) / points.length;
  let num = 0;
  let den = 0;
  for (const s of points) {
    num += (s.minute - meanX) * (value(s) - meanY);
    den += (s.minute - meanX) ** 2;
  }
  return den === 0 ? undefined : (num / den) * 60;
}

/** A line per sample (Markdown table), then the slopes after `fromMinute` and the load's counts. */
export function soakReport(samples: readonly SoakSample[], counts: SoakCounts, fromMinute = 5): string {
  const slope = (f: (s: SoakSample) => number) => {
    const v = slopePerHour(samples, f, fromMinute);
    return v === undefined ? 'n/a (too short)' : `${v >= 0 ? '+' : ''}${v.toFixed(2)} MB/h`;
  };
  const ratio = (a: number, b: number) => `${a}/${b}${a === b ? '' : ` (${b - a} lost)`}`;
  return [
    '| minute | agent RSS | V8 heap used |',
    '|---|---|---|',
    ...samples.map((s) => `| ${s.minute} | ${s.rssMb.toFixed(1)} MB | ${s.heapMb.toFixed(1)} MB |`),
    '',
    `Slope after minute ${fromMinute} (least squares): RSS ${slope((s) => s.rssMb)}, heap ${slope((s) => s.heapMb)}.`,
    `Edits restored: ${ratio(counts.editsRestored, counts.editsTotal)}, slowest ${(counts.slowestRestoreMs / 1000).toFixed(2)} s. ` +
      `Commits applied: ${ratio(counts.commitsApplied, counts.commitsTotal)}. Apiserver restarts: ${counts.restarts}.`,
  ].join('\n');
}
