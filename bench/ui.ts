// `npm run bench -- ui [--sizes 5000,1000] [--reps 9]`: the dashboard's Objects page with N managed
// objects, rendered by the server and loaded in headless Chromium (Debian's /usr/bin/chromium,
// playwright-core), against a baseline in the same run: the same rows as a bare <table> with no
// stylesheet or script. The page and the baseline are loaded in turn, so both see the same load.
import { availableParallelism, loadavg } from 'node:os';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
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

/**
 * In the page: the navigation's duration (start to the load event) and the time the first frame
 * after the load event was rendered (a task queued from requestAnimationFrame runs after that
 * frame's style, layout and paint): what "renders in under 1 s" means here.
 */
const TIMES = `new Promise((ok) => {
  const done = () => requestAnimationFrame(() => setTimeout(() => ok([performance.getEntriesByType('navigation')[0].duration, performance.now()]), 0));
  document.readyState === 'complete' ? done() : addEventListener('load', done, { once: true });
})`;

interface Load {
  loadMs: number;
  paintedMs: number;
  /**
   * The document's main-thread task time (Chromium's Performance.getMetrics TaskDuration: wall
   * time of its tasks, so it grows with the machine's load too), and its layout and style parts.
   */
  busyMs: number;
  layoutMs: number;
  styleMs: number;
}

/** One navigation to `url`, with its times and main-thread work (the metrics restart with each document). */
async function load({ page, cdp }: Tab, url: string): Promise<Load> {
  await page.goto(url, { waitUntil: 'load' });
  const [loadMs, paintedMs] = (await page.evaluate(TIMES)) as [number, number];
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = (name: string) => (metrics.find((x) => x.name === name)?.value ?? Number.NaN) * 1000;
  return {
    loadMs,
    paintedMs,
    busyMs: m('TaskDuration'),
    layoutMs: m('LayoutDuration'),
    styleMs: m('RecalcStyleDuration'),
  };
}

interface Tab {
  page: Page;
  cdp: CDPSession;
}

async function tab(browser: Browser): Promise<Tab> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const med = (loads: readonly Load[], f: (l: Load) => number) => median(loads.map(f));

/** The bench's Markdown table: server render, page load and render in Chromium, the bare-table baseline and the ratio. */
export async function benchUi(sizes: readonly number[] = [5000, 1000], reps = 9): Promise<string> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const lines = [
    '| objects | HTML | server render | load event | rendered | main thread (layout, style) | bare table rendered | bare table main thread | ratio rendered | target < 1 s | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const loads: number[] = [loadavg()[0]!];
  try {
    for (const n of sizes) {
      const snapshot = snapshotOf(n);
      const renders: number[] = [];
      let bytes = 0;
      for (let i = 0; i < reps; i++) {
        const t = performance.now();
        bytes = Buffer.byteLength(objectsPage(snapshot, {}).markup);
        renders.push(performance.now() - t);
      }
      const server = await startDashboardServer({
        token: 'bench',
        source: { snapshot: () => snapshot, detail: () => undefined, onChange: () => () => undefined },
      });
      // The page and the baseline each in a context (a renderer process) of its own, so that
      // neither pays for tearing down the other's document.
      const [ours, bare] = [await tab(browser), await tab(browser)];
      await ours.page.goto(server.url);
      const baseline = bareTable(snapshot);
      await bare.page.route('http://127.0.0.1/baseline', (r) =>
        r.fulfill({ body: baseline, contentType: 'text/html' }),
      );
      // The first page of objects (PAGE_SIZE rows) and, for comparison, the whole list as a bare table.
      const pages: Load[] = [];
      const bases: Load[] = [];
      for (let i = 0; i < reps; i++) {
        pages.push(await load(ours, `http://127.0.0.1:${server.port}/objects`));
        bases.push(await load(bare, 'http://127.0.0.1/baseline'));
      }
      await ours.page.context().close();
      await bare.page.context().close();
      await server.close();
      const rendered = med(pages, (l) => l.paintedMs);
      const base = med(bases, (l) => l.paintedMs);
      lines.push(
        `| ${n} | ${(bytes / 1024).toFixed(0)} KiB | ${ms(median(renders))} | ${ms(med(pages, (l) => l.loadMs))} | ${ms(rendered)} | ${ms(med(pages, (l) => l.busyMs))} (${ms(med(pages, (l) => l.layoutMs))}, ${ms(med(pages, (l) => l.styleMs))}) | ${ms(base)} | ${ms(med(bases, (l) => l.busyMs))} | ${ratio(rendered, base)} | 1000 ms | ${rendered < 1000 ? 'yes' : 'no'} |`,
      );
      loads.push(loadavg()[0]!);
    }
  } finally {
    await browser.close();
  }
  return `${lines.join('\n')}\n\nMedians of ${reps} loads each at a 1280×800 viewport, the page and the baseline in turn; load average ${loads.map((l) => l.toFixed(1)).join(' → ')} on ${availableParallelism()} cores. "rendered" is navigation start to the first frame after the load event; "main thread" is the wall time of the document's main-thread tasks (Chromium's TaskDuration, LayoutDuration, RecalcStyleDuration). The baseline is the same rows as a bare table, served by Playwright without a server, stylesheet or script.\n`;
}
