import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeIsolation } from '../../../src/render/sandbox/isolation.js';
import { childSynthError } from '../../harness/child-synth.js';
import { BIN } from '../../harness/cli.js';
import { configMapPlatform } from '../../harness/config-map-platform.js';
import { platformDir } from '../../harness/platform-dir.js';

/** A platform whose module runs `top` when it is imported (before build), then emits one ConfigMap. */
const platform = (top: string) => configMapPlatform(top, { imports: "import os from 'node:os';" });

const alive = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};

let victim: ChildProcess;
let victimPriority: number;
beforeAll(() => {
  victim = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  victimPriority = getPriority(victim.pid!);
});
afterAll(() => {
  victim.kill('SIGKILL');
});

describe('platform code cannot signal other processes', () => {
  it('renders in user namespaces on this machine (unshare works unprivileged here)', async () => {
    expect((await probeIsolation()).userNamespaces).toBe(true);
  });

  describe.each([
    ['in the renderer (namespaces)', {}],
    ['in the renderer as another user (uid mode)', { userNamespaces: false }],
    ['in a trusted render (no isolation: the guard alone)', { userNamespaces: false, rootNamespaces: false }],
  ])('%s', (_where, isolation) => {
    it.each([
      ['its parent (the agent)', 'process.kill(process.ppid, "SIGKILL");', /signal process \d+/],
      ['an unrelated process, by PID', 'process.kill(VICTIM, "SIGKILL");', /signal process VICTIM/],
      ['its process group (kill 0)', 'process.kill(0, "SIGKILL");', /signal process 0/],
      [
        'the priority of an unrelated process',
        'os.setPriority(VICTIM, 19);',
        /change the priority of process VICTIM/,
      ],
    ])(
      'synth fails with NotPermitted when platform code touches %s, and both live',
      async (_what, top, message) => {
        const pid = String(victim.pid);
        const dir = platformDir(platform(top.replace('VICTIM', pid)));
        const err = await childSynthError(dir, { isolation, trustRepository: true });
        expect(err.code).toBe('NotPermitted');
        expect(err.message).toMatch(
          new RegExp(
            `platform/main\\.ts:3: platform code is not permitted to ${message.source.replace('VICTIM', pid)}`,
          ),
        );
        expect(alive(victim.pid!)).toBe(true);
        expect(getPriority(victim.pid!)).toBe(victimPriority);
        expect(alive(process.pid)).toBe(true);
      },
    );
  });
});

/**
 * The live synth processes under the CLI `cli` (node's flags cap their heap): the renderer sees
 * every checkout at one path, so their arguments no longer name this test's checkout.
 */
function synthChildrenOf(cli: number): number[] {
  return processesWith(`--max-old-space-size`).filter((pid) => pid !== cli && descends(pid, cli));
}

/** Whether `pid`'s chain of parents reaches `ancestor`. */
function descends(pid: number, ancestor: number): boolean {
  for (let at: number | undefined = pid, n = 0; at !== undefined && at > 1 && n < 64; n++) {
    if (at === ancestor) return true;
    at = parentOf(at);
  }
  return false;
}

/** The parent PID and state fields of `/proc/<pid>/stat`, or undefined when it is gone. */
const statFields = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
  } catch {
    return undefined;
  }
};
const parentOf = (pid: number) => {
  const ppid = statFields(pid)?.[1];
  return ppid === undefined ? undefined : Number(ppid);
};
const state = (pid: number) => statFields(pid)?.[0];

/** PIDs of live (not zombie) processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '')[0];
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a synth child does not outlive its parent', () => {
  it('is killed when the groundwork process running it is killed', async () => {
    const dir = platformDir(platform('for (;;) {}'));
    const cli = spawn(process.execPath, [BIN, 'synth', '--dir', dir], {
      stdio: 'ignore',
      env: { ...process.env, GROUNDWORK_SYNTH_CACHE: '0' },
    });
    // The synth child (a descendant of the CLI), spinning in the platform's loop.
    const children = await until('the synth child', () => {
      const pids = synthChildrenOf(cli.pid!);
      return pids.length > 0 ? pids : undefined;
    });
    const alive = () => children.filter((pid) => state(pid) !== undefined && state(pid) !== 'Z');
    try {
      cli.kill('SIGKILL');
      await until('the synth child to end', () => (alive().length === 0 ? true : undefined));
    } finally {
      for (const pid of alive()) process.kill(pid, 'SIGKILL');
    }
    expect(children.length).toBeGreaterThan(0);
  });
});
