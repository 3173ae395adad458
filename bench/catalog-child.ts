// One catalog size in its own process, with Node's default heap (what the CLI gets):
// `node dist/bench/catalog-child.js <entries> <perPackage> <reps>`. Prints one JSON line.
import { parseCatalog } from '../src/olm/catalog/index.js';
import { fbcJsonStream } from './catalog-fbc.js';

const [entries, perPackage, reps] = process.argv.slice(2).map(Number) as [number, number, number];
const text = fbcJsonStream({ entries, perPackage });
// The baseline reads the same bytes as one JSON array: the cost of materializing every blob, with
// no splitting, validation or model (built before the clock starts).
const asArray = `[${text.trimEnd().replaceAll('\n}\n{', '\n},\n{')}]`;

/** Wall time, and CPU time of the process (all threads: GC helpers count too) for one call. */
const time = (fn: () => unknown): { ms: number; cpuMs: number; value: unknown } => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, value };
};

const jsonMs: number[] = [];
const parseMs: number[] = [];
const parseCpuMs: number[] = [];
let bundles = 0;
let channelEntries = 0;
for (let r = 0; r < reps; r++) {
  // Only the count is kept: the baseline's objects must not stay alive while parseCatalog runs.
  const base = time(() => (JSON.parse(asArray) as unknown[]).length);
  jsonMs.push(base.ms);
  if (base.value !== entries + 2 * Math.ceil(entries / perPackage)) {
    throw new Error('baseline read the wrong number of blobs');
  }
  const parsed = time(() => parseCatalog([{ path: 'index.json', text }]));
  parseMs.push(parsed.ms);
  parseCpuMs.push(parsed.cpuMs);
  const catalog = parsed.value as ReturnType<typeof parseCatalog>;
  bundles = 0;
  channelEntries = 0;
  for (const p of catalog.packages.values()) {
    bundles += p.bundles.size;
    for (const c of p.channels.values()) channelEntries += c.entries.length;
  }
}
if (bundles !== entries || channelEntries !== entries) throw new Error('the catalog lost entries');
process.stdout.write(
  `${JSON.stringify({ bytes: text.length, jsonMs, parseMs, parseCpuMs, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
