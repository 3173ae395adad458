// Catalog benchmark (issue 19, item 7): parseCatalog of a synthetic file-based catalog (a JSON
// stream as `opm render` writes it) against JSON.parse of the same bytes, in one run.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One catalog shape: how many channel entries (= bundles), in packages of how many. */
export interface CatalogShape {
  readonly entries: number;
  readonly perPackage: number;
}

interface Result {
  bytes: number;
  jsonMs: number[];
  parseMs: number[];
  parseCpuMs: number[];
  peakRssMb: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/**
 * Parses each shape in its own process (Node's default heap), baseline and parse interleaved,
 * median of `reps`, and returns a Markdown table. The target is under 2 s for 100,000 entries.
 */
export async function benchCatalog(shapes: readonly CatalogShape[], reps = 3): Promise<string> {
  const script = new URL('./catalog-child.js', import.meta.url).pathname;
  const rows = [
    '| entries (packages) | catalog size | parseCatalog | its CPU time | JSON.parse of the same bytes | ratio | peak RSS | target |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const perEntry: number[] = [];
  for (const { entries, perPackage } of shapes) {
    const { stdout } = await run(
      process.execPath,
      [script, String(entries), String(perPackage), String(reps)],
      {
        maxBuffer: 1 << 20,
      },
    );
    const r = JSON.parse(stdout) as Result;
    const parse = median(r.parseMs);
    const json = median(r.jsonMs);
    perEntry.push(parse / entries);
    rows.push(
      `| ${entries.toLocaleString('en-US')} (${Math.ceil(entries / perPackage).toLocaleString('en-US')}) | ${(r.bytes / 1e6).toFixed(0)} MB | ${s(parse)} | ${s(median(r.parseCpuMs))} | ${s(json)} | ${(parse / json).toFixed(2)}× | ${r.peakRssMb.toFixed(0)} MB | ${entries >= 100_000 ? '< 2 s' : ''} |`,
    );
  }
  rows.push(
    '',
    `Time per entry from the smallest to the largest shape: ${(perEntry[0]! * 1000).toFixed(1)} µs to ${(perEntry[perEntry.length - 1]! * 1000).toFixed(1)} µs (linear when these stay close).`,
    '',
    'Each package has one olm.package blob, a `stable` channel listing every bundle (a replaces chain, skips every tenth entry, a skipRange on each) and one olm.bundle blob per entry with olm.package, two olm.gvk, an olm.package.required and two related images, pretty-printed as `opm render -o json` does (`bench/catalog-fbc.ts`). parseCatalog splits the stream, validates every blob with zod and builds the model with each channel graph.',
  );
  return rows.join('\n');
}
