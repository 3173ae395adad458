// `npm run bench -- ui [--sizes 5000] [--reps 5]`: the dashboard's Objects page with N managed objects,
// rendered by the server and loaded in headless Chromium (Debian's /usr/bin/chromium, playwright-core),
// against a baseline in the same run: the same rows as a bare <table> with no stylesheet or script.
import { chromium } from 'playwright-core';
import type { StageName } from '../src/core/stages.js';
import type { HealthStatus } from '../src/health/types.js';
import { startDashboardServer } from '../src/ui/dashboard-server.js';
import { objectsPage } from '../src/ui/pages/objects.js';
import type { DashboardSnapshot, ObjectRow } from '../src/ui/snapshot.js';
import { median, ratio } from './cli-table.js';

const STAGES: StageName[] = ['namespaces', 'resources', 'subscriptions', 'operands'];
const HEALTH: HealthStatus[] = ['Healthy', 'Healthy', 'Healthy', 'Progressing', 'Degraded', 'Missing'];

/** A snapshot with `n` objects spread over 50 namespaces, four stages and a mix of verdicts. */
function snapshotOf(n: number): DashboardSnapshot {
  const objects: ObjectRow[] = Array.from({ length: n }, (_, i) => {
    const ref = {
      group: i % 2 ? 'apps' : '',
      kind: i % 2 ? 'Deployment' : 'ConfigMap',
      namespace: `ns-${i % 50}`,
      name: `object-${i}`,
    };
    return {
      id: `${ref.namespace}_${ref.name}_${ref.group}_${ref.kind}`,
      ref,
      stage: STAGES[i % STAGES.length]!,
      health: { status: HEALTH[i % HEALTH.length]!, reason: 'Reason', message: `message ${i}` },
    };
  });
  return { at: new Date(), syncs: [], selected: undefined, objects, drift: [], openshift: {}, problems: [] };
}

function bareTable(s: DashboardSnapshot): string {
  const rows = s.objects
    .map(
      (r) =>
        `<tr><td>${r.ref.kind}</td><td>${r.ref.namespace}</td><td>${r.ref.name}</td><td>${r.health.status}</td><td>${r.health.reason}</td><td></td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><title>baseline</title></head><body><main id="main"><table>${rows}</table></main></body></html>`;
}

/** Navigation start to the load event of the page just loaded, evaluated in the page. */
const NAVIGATION_MS = "performance.getEntriesByType('navigation')[0].duration";

/** The bench's Markdown table: server render time, page load in Chromium, the bare-table baseline and the ratio. */
export async function benchUi(sizes: readonly number[] = [5000], reps = 5): Promise<string> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const lines = [
    '| objects | server render (median) | page load in Chromium (median) | bare table baseline | ratio | target < 1 s | met |',
    '|---|---|---|---|---|---|---|',
  ];
  try {
    for (const n of sizes) {
      const snapshot = snapshotOf(n);
      const renders: number[] = [];
      for (let i = 0; i < reps; i++) {
        const t = performance.now();
        objectsPage(snapshot, {});
        renders.push(performance.now() - t);
      }
      const token = 'bench';
      const server = await startDashboardServer({
        token,
        source: { snapshot: () => snapshot, detail: () => undefined, onChange: () => () => undefined },
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(server.url);
      // The first page of objects (PAGE_SIZE rows) and, for comparison, the whole list as a bare table.
      const loads: number[] = [];
      const bases: number[] = [];
      const baseline = bareTable(snapshot);
      for (let i = 0; i < reps; i++) {
        // Navigation start to the load event, the page's script and stylesheet included.
        await page.goto(`http://127.0.0.1:${server.port}/objects`, { waitUntil: 'load' });
        loads.push(Number(await page.evaluate(NAVIGATION_MS)));
        await page.route('http://127.0.0.1/baseline', (r) =>
          r.fulfill({ body: baseline, contentType: 'text/html' }),
        );
        await page.goto('http://127.0.0.1/baseline', { waitUntil: 'load' });
        bases.push(Number(await page.evaluate(NAVIGATION_MS)));
      }
      await context.close();
      await server.close();
      const [load, base] = [median(loads), median(bases)];
      lines.push(
        `| ${n} | ${median(renders).toFixed(0)} ms | ${load.toFixed(0)} ms | ${base.toFixed(0)} ms | ${ratio(load, base)} | 1000 ms | ${load < 1000 ? 'yes' : 'no'} |`,
      );
    }
  } finally {
    await browser.close();
  }
  return `${lines.join('\n')}\n\n${reps} runs each; the baseline is the same rows as a bare table, served by Playwright without a server, stylesheet or script.\n`;
}
