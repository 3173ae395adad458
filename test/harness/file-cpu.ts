// A setup file of both vitest projects: records what each test file cost in CPU, for the run's
// summary (`summary-reporter.ts`). On a 2-core machine shared with other work, wall time says how
// long a file waited as much as how much it did; CPU time says what it costs. Files of a worker run
// one at a time, so the process's CPU from this setup to the file's end (its own and that of the
// children it waited for: the CLI runs, synth children, git, helm) is the file's; the shared control plane's CPU over the file is
// added apart (e2e files run one at a time).
import { readFileSync } from 'node:fs';
import { afterAll, expect, inject } from 'vitest';
import { runControlPlane } from './run-control-plane.js';
import { recordFileCpu } from './test-run.js';

/** utime + stime + cutime + cstime of a process, in ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | 'self'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of stat(5); `fields` starts at field 3.
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

function controlPlaneMs(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
}

const pids = (() => {
  try {
    return inject('controlPlanes') ? runControlPlane().pids : [];
  } catch {
    return [];
  }
})();
const controlPlaneAtStart = controlPlaneMs(pids);
// A worker may run several files one after another (the unit project does not isolate them): this
// setup file runs again before each, so a file's CPU is what the process spent since.
const selfAtStart = cpuMs('self');

afterAll(() => {
  const file = expect.getState().testPath;
  if (!file) return;
  recordFileCpu({
    file,
    cpuMs: cpuMs('self') - selfAtStart,
    controlPlaneMs: controlPlaneMs(pids) - controlPlaneAtStart,
  });
});
