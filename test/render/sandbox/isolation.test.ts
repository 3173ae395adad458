import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectLauncher, launchArgv } from '../../../src/render/sandbox/isolation.js';

const run = promisify(execFile);

describe('launchArgv', () => {
  it.each([
    [
      { isolation: 'pid-namespace' as const, diesWithParent: true },
      [
        'setpriv',
        '--pdeathsig',
        'KILL',
        '--',
        'unshare',
        '--user',
        '--pid',
        '--fork',
        '--kill-child',
        '--',
        'node',
        'x.mjs',
      ],
    ],
    [
      { isolation: 'pid-namespace' as const, diesWithParent: false },
      ['unshare', '--user', '--pid', '--fork', '--kill-child', '--', 'node', 'x.mjs'],
    ],
    [
      { isolation: 'process-group' as const, diesWithParent: true },
      ['setpriv', '--pdeathsig', 'KILL', '--', 'node', 'x.mjs'],
    ],
    [{ isolation: 'process-group' as const, diesWithParent: false }, ['node', 'x.mjs']],
  ])('%j', (launcher, argv) => {
    expect(launchArgv(launcher, ['node', 'x.mjs'])).toEqual(argv);
  });
});

// The kernel's layer on its own, without the in-child guard on process.kill: a plain node
// process started the way the synth child is. Signal 0 only checks that a target exists (and is
// safe to send even if the namespace were missing); -1 means every process the caller may signal.
describe('in the PID namespace, a process can name no process outside it', () => {
  let victim: ChildProcess;
  beforeAll(() => {
    victim = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  });
  afterAll(() => {
    victim.kill('SIGKILL');
  });

  it('kill of an unrelated PID, or of every process (-1), finds no such process (ESRCH)', async () => {
    const launcher = await detectLauncher();
    expect(launcher.isolation).toBe('pid-namespace');
    const probe = `
      const tryKill = (pid) => { try { process.kill(pid, 0); return 'found'; } catch (e) { return e.code; } };
      console.log(JSON.stringify({ pid: process.pid, ppid: process.ppid, victim: tryKill(${victim.pid}), all: tryKill(-1) }));`;
    const [file, ...args] = launchArgv(launcher, [process.execPath, '-e', probe]);
    const { stdout } = await run(file!, args);
    expect(JSON.parse(stdout)).toEqual({ pid: 1, ppid: 0, victim: 'ESRCH', all: 'ESRCH' });
    expect(process.kill(victim.pid!, 0)).toBe(true);
  });
});
