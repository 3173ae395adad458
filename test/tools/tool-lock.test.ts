import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { withLock } from '../../src/tools/tool-lock.js';

const root = mkdtempSync(join(tmpdir(), 'gw-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A pid that surely belongs to no live process: a child that has already exited. */
function deadPid(): number {
  return spawnSync('true').pid ?? 0;
}

describe('withLock', () => {
  it('runs the work holding the lock and removes it afterwards', async () => {
    const dir = join(root, 'plain');
    expect(await withLock(dir, async () => existsSync(join(dir, 'pid')))).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it('takes over a lock whose holder has died', async () => {
    const dir = join(root, 'dead');
    mkdirSync(dir);
    writeFileSync(join(dir, 'pid'), String(deadPid()));
    expect(await withLock(dir, async () => 'ran')).toBe('ran');
  });

  it('takes over an old lock without a pid file (holder died before writing it)', async () => {
    const dir = join(root, 'pidless');
    mkdirSync(dir);
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    expect(await withLock(dir, async () => 'ran')).toBe('ran');
  });

  it('waits while a fresh pid-less lock or a live holder has it', async () => {
    for (const pid of [undefined, process.pid]) {
      const dir = join(root, `held-${pid ?? 'none'}`);
      mkdirSync(dir);
      if (pid) writeFileSync(join(dir, 'pid'), String(pid));
      let ran = false;
      const waiting = withLock(dir, async () => {
        ran = true;
      });
      await sleep(1500);
      expect(ran).toBe(false);
      rmSync(dir, { recursive: true });
      await waiting;
      expect(ran).toBe(true);
    }
  });
});
