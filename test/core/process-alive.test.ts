import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/process-alive.js';

describe('isAlive', () => {
  it('is true for this process and for init', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(1)).toBe(true);
  });

  it('is false for a process that has exited and been reaped', () => {
    const { pid } = spawnSync(process.execPath, ['-e', '0']);
    expect(isAlive(pid!)).toBe(false);
  });

  it('is false for a zombie: exited, not yet reaped', async () => {
    // A shell that starts a child and execs into a sleep that never waits for it. The child exits
    // only once its parent is that sleep: exiting before the exec, the shell could reap it (it did
    // under load, and the pid was then gone from the process table).
    const child = 'while read -r c < /proc/$PPID/comm && [ "$c" != sleep ]; do sleep 0.01; done; exit 0';
    const parent = spawn('sh', ['-c', `sh -c '${child}' & echo $!; exec sleep 5`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pid = Number(
      await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))),
    );
    try {
      const deadline = Date.now() + 5000;
      while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(isAlive(pid)).toBe(false);
      // Still in the process table: signal 0 alone would call it alive.
      expect(() => process.kill(pid, 0)).not.toThrow();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
