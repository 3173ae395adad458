// Catalog benchmark (issue 19, item 7): parseCatalog of a synthetic file-based catalog (a JSON
// stream as `opm render` writes it) against JSON.parse of the same bytes, in one run.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fbcJsonStream } from './catalog-fbc.js';

const run = promisify(execFile);

/** One catalog shape: how many channel entries (= bundles), in packages of how many. */
export interface CatalogShape {
  readonly entries: number;
  readonly perPackage: number;
}

interface Result {
  ms: number[];
  cpuMs: number[];
  read: unknown;
  peakRssMb: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/**
 * Writes each shape's catalog to a temporary file, then times parseCatalog and the JSON.parse
 * baseline on it, each in a process of its own (Node's default heap), median of `reps`
 * runs in each; returns a Markdown table. The target is under 2 s for 100,000 entries.
 */
export async function benchCatalog(shapes: readonly CatalogShape[], reps = 3): Promise<string> {
  const script = new URL('./catalog-child.js', import.meta.url).pathname;
  const work = await mkdtemp(join(tmpdir(), 'gw-catalog-bench-'));
  const child = async (mode: 'parse' | 'json', file: string): Promise<Result> => {
    const { stdout } = await run(process.execPath, [script, mode, file, String(reps)], {
      maxBuffer: 1 << 20,
    });
    return JSON.parse(stdout) as Result;
  };
  const rows = [
    '| entries (packages) | catalog size | parseCatalog | its CPU time | JSON.parse of the same bytes | ratio | peak RSS of the parse | target |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const perEntry: number[] = [];
  try {
    for (const { entries, perPackage } of shapes) {
      const file = join(work, `fbc-${entries}-${perPackage}.json`);
      const text = fbcJsonStream({ entries, perPackage });
      await writeFile(file, text);
      const json = await child('json', file);
      const parsed = await child('parse', file);
      const read = parsed.read as { bundles: number; entries: number };
      if (read.bundles !== entries || read.entries !== entries)
        throw new Error(`the catalog lost entries: ${JSON.stringify(read)}`);
      const parse = median(parsed.ms);
      const base = median(json.ms);
      perEntry.push(parse / entries);
      rows.push(
        `| ${entries.toLocaleString('en-US')} (${Math.ceil(entries / perPackage).toLocaleString('en-US')}) | ${(text.length / 1e6).toFixed(0)} MB | ${s(parse)} | ${s(median(parsed.cpuMs))} | ${s(base)} | ${(parse / base).toFixed(2)}× | ${parsed.peakRssMb.toFixed(0)} MB | ${entries >= 100_000 ? '< 2 s' : ''} |`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  rows.push(
    '',
    `Time per entry from the first to the last shape: ${(perEntry[0]! * 1000).toFixed(1)} µs to ${(perEntry[perEntry.length - 1]! * 1000).toFixed(1)} µs (linear when these stay close).`,
    '',
    'Each package has one olm.package blob, a `stable` channel listing every bundle (a replaces chain, skips every tenth entry, a skipRange on each) and one olm.bundle blob per entry with olm.package, two olm.gvk, an olm.package.required and two related images, pretty-printed as `opm render -o json` does (`bench/catalog-fbc.ts`); versions and ranges differ between packages, as in a real index. parseCatalog splits the stream, validates every blob (a quick check of the usual shape, zod for the rest and for the messages) and builds the model with each channel graph.',
  );
  return rows.join('\n');
}
