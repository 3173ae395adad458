// Preloaded into the soaked agent (`node --expose-gc --import soak-probe.js`): on SIGUSR2 it runs a
// full GC and appends `{ rss, heapUsed }` (bytes) as a JSON line to $SOAK_PROBE_FILE, so the bench
// reads the heap that is retained, not the garbage of the moment. When `$SOAK_PROBE_FILE.snapshot`
// exists it is removed and a heap snapshot is written beside the probe file first.
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

const file = process.env.SOAK_PROBE_FILE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  let snapshots = 0;
  process.on('SIGUSR2', () => {
    if (existsSync(`${file}.snapshot`)) {
      rmSync(`${file}.snapshot`);
      writeHeapSnapshot(join(dirname(file), `agent-${++snapshots}.heapsnapshot`));
    }
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ rss, heapUsed })}\n`);
  });
}
