import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { formatElapsed } from '../../src/core/progress.js';
import { toolCacheDir } from '../../src/tools/tool-cache.js';
import {
  makeRunDir,
  readBuilds,
  readFileCpu,
  TEST_RUN_DIR,
  type BuildRecord,
  type FileCpu,
} from './test-run.js';

/** How many of the slowest test files the summary names. */
const SLOWEST = 10;

/**
 * Ends every test run with the test files' totals per project and the ten slowest files, each with
 * its wall and CPU time (`file-cpu.ts`), what was built or started during the run (the control
 * plane, Go tools, shared services) and how long that took, the run's wall time, and last one plain
 * line, `N passed, N failed`, the contract `.ci/run` relies on: always the last line. Skipped or todo
 * tests count as failed (CI must not pass by skipping); so do files that failed to load and unhandled
 * errors (each counts once), and a run that failed or was stopped with nothing else counted, or ran
 * no test at all, counts one.
 *
 * It also makes the run's directory (`test-run.ts`) when the run starts, and removes it at exit.
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd();
  private started = Date.now();
  private runDir: string | undefined;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.started = Date.now();
    if (process.env[TEST_RUN_DIR]) return;
    this.runDir = makeRunDir();
  }

  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason = 'passed',
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const mod of modules) {
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests++;
        if (test.result().state === 'passed') passed++;
        else failed++;
      }
      if (tests === 0 && mod.state() === 'failed') failed++;
    }
    // A run that failed or was stopped with nothing counted (a global setup that threw, a signal),
    // or that ran no test at all, is one failure: its last line must never read `0 failed`.
    if (failed === 0 && (reason !== 'passed' || passed === 0)) failed = 1;
    const runDir = this.runDir ?? process.env[TEST_RUN_DIR];
    const cpu = runDir ? readFileCpu(runDir) : new Map<string, FileCpu>();
    const table = process.env.GROUNDWORK_TEST_TIMES;
    if (table) writeFileSync(table, timesTable(modules, this.root, cpu));
    const lines = [
      ...slowestFiles(modules, this.root, cpu),
      ...buildLines(runDir, this.started, this.root),
      `wall time ${formatElapsed(Date.now() - this.started)}`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n\n${passed} passed, ${failed} failed\n`);
  }
}

/**
 * Every file's times as tab-separated lines, slowest first: project, wall ms, CPU ms, control plane
 * ms, path (`GROUNDWORK_TEST_TIMES=<file>`: CONTRIBUTING.md, "The time budget").
 */
function timesTable(
  modules: ReadonlyArray<TestModule>,
  root: string,
  cpu: ReadonlyMap<string, FileCpu>,
): string {
  return modules
    .map((mod) => ({ mod, ms: fileMs(mod), c: cpu.get(mod.moduleId) }))
    .sort((a, b) => b.ms - a.ms)
    .map(
      ({ mod, ms, c }) =>
        `${mod.project.name}\t${Math.round(ms)}\t${c?.cpuMs ?? ''}\t${c?.controlPlaneMs ?? ''}\t${relative(root, mod.moduleId)}\n`,
    )
    .join('');
}

/** A test file's own time: environment, imports, setup files, its tests and hooks. */
function fileMs(mod: TestModule): number {
  const d = mod.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
}

/**
 * The ten slowest files by wall time, each with its CPU time (its process and the children it ran;
 * `+N cp` the shared control plane's CPU while it ran), and the totals per project.
 */
function slowestFiles(
  modules: ReadonlyArray<TestModule>,
  root: string,
  cpu: ReadonlyMap<string, FileCpu>,
): string[] {
  const timed = modules.map((mod) => ({ mod, ms: fileMs(mod) })).sort((a, b) => b.ms - a.ms);
  if (timed.length === 0) return [];
  const cpuOf = (mod: TestModule) => {
    const c = cpu.get(mod.moduleId);
    if (!c) return ''.padStart(22);
    const cp = c.controlPlaneMs > 0 ? ` +${formatElapsed(c.controlPlaneMs)} cp` : '';
    return `${formatElapsed(c.cpuMs)} CPU${cp}`.padEnd(22);
  };
  const totals = [...new Set(timed.map((t) => t.mod.project.name))].map((project) => {
    const mods = timed.filter((t) => t.mod.project.name === project);
    const wall = mods.reduce((sum, t) => sum + t.ms, 0);
    const own = mods.reduce((sum, t) => sum + (cpu.get(t.mod.moduleId)?.cpuMs ?? 0), 0);
    const cp = mods.reduce((sum, t) => sum + (cpu.get(t.mod.moduleId)?.controlPlaneMs ?? 0), 0);
    return `${project}: ${mods.length} files, ${formatElapsed(wall)} of file time, ${formatElapsed(own)} CPU${cp > 0 ? ` +${formatElapsed(cp)} control plane` : ''}`;
  });
  return [
    `Test files: ${totals.join('; ')}`,
    `Slowest ${Math.min(SLOWEST, timed.length)}:`,
    ...timed
      .slice(0, SLOWEST)
      .map(
        ({ mod, ms }) =>
          `  ${formatElapsed(ms).padStart(7)}  ${cpuOf(mod)}  ${mod.project.name.padEnd(4)}  ${relative(root, mod.moduleId)}`,
      ),
  ];
}

/**
 * What the run built (or found cached) and how long it took: the records of the global setup and
 * of `test/harness/tools.ts`, and any tool that product code built into the cache during the run
 * without asking the harness (its `tool.json`).
 */
function buildLines(runDir: string | undefined, started: number, root: string): string[] {
  const records = runDir ? readBuilds(runDir) : [];
  for (const extra of toolsBuiltSince(started))
    if (!records.some((r) => r.what === extra.what && r.how === 'built')) records.push(extra);
  if (records.length === 0) return [];
  const of = (how: BuildRecord['how']) => records.filter((r) => r.how === how);
  const ms = (list: BuildRecord[]) => formatElapsed(list.reduce((sum, r) => sum + r.ms, 0));
  const by = (r: BuildRecord) => (r.by ? ` for ${relative(root, r.by)}` : '');
  const [built, cached, services] = [of('built'), of('cached'), of('started')];
  return [
    built.length === 0 ? 'Built during the run: nothing' : `Built during the run: ${ms(built)}`,
    ...built.map((r) => `  ${formatElapsed(r.ms).padStart(7)}  ${r.what}${by(r)}`),
    ...(cached.length > 0 ? [`  cached: ${[...new Set(cached.map((r) => r.what))].join(', ')}`] : []),
    ...(services.length > 0
      ? [`Shared services started: ${services.map((r) => `${r.what} ${formatElapsed(r.ms)}`).join(', ')}`]
      : []),
  ];
}

/** Tools whose cache record says they were built after `since` (by anyone on this cache). */
function toolsBuiltSince(since: number): BuildRecord[] {
  let entries: string[];
  try {
    entries = readdirSync(toolCacheDir());
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    try {
      const record = JSON.parse(readFileSync(join(toolCacheDir(), entry, 'tool.json'), 'utf8')) as {
        name?: unknown;
        builtAt?: unknown;
        buildSeconds?: unknown;
      };
      const builtAt = Date.parse(String(record.builtAt));
      if (!(builtAt >= since) || typeof record.name !== 'string') return [];
      const ms = typeof record.buildSeconds === 'number' ? record.buildSeconds * 1000 : 0;
      return [{ what: record.name, how: 'built' as const, ms }];
    } catch {
      return [];
    }
  });
}
