// One measurement of the catalog benchmark in its own process, with Node's default heap (what the
// CLI gets): `node dist/bench/catalog-child.js <parse|json> <file> <reps>`. Prints one JSON line.
// `parse` times parseCatalog of the file (checking that no entry was lost); `json` times JSON.parse
// of the same bytes as one array, the cost of materializing every blob with no splitting,
// validation or model (the array text is built before the clock starts).
import { readFileSync } from 'node:fs';
import { parseCatalog } from '../src/olm/catalog/index.js';

const [mode, file, repsArg] = process.argv.slice(2) as ['parse' | 'json', string, string];
const text = readFileSync(file, 'utf8');
const input = mode === 'json' ? `[${text.trimEnd().replaceAll('\n}\n{', '\n},\n{')}]` : text;

/** Wall time, and CPU time of the process (all threads: GC helpers count too) for one call. */
const time = (fn: () => unknown): { ms: number; cpuMs: number; value: unknown } => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, value };
};

/** What one run read: blobs (json), or bundles and channel entries (parse). Only counts are kept. */
const run = (): unknown => {
  if (mode === 'json') return (JSON.parse(input) as unknown[]).length;
  let bundles = 0;
  let entries = 0;
  for (const p of parseCatalog([{ path: 'index.json', text: input }]).packages.values()) {
    bundles += p.bundles.size;
    for (const c of p.channels.values()) entries += c.entries.length;
  }
  return { bundles, entries };
};

const ms: number[] = [];
const cpuMs: number[] = [];
let read: unknown;
for (let r = 0; r < Number(repsArg); r++) {
  const t = time(run);
  ms.push(t.ms);
  cpuMs.push(t.cpuMs);
  read = t.value;
}
process.stdout.write(
  `${JSON.stringify({ ms, cpuMs, read, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
