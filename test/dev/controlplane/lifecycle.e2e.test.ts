import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/cluster/client.js';
import { LocalControlPlane } from '../../../src/dev/controlplane/control-plane.js';
import { isAlive } from '../../../src/core/process-alive.js';
import { eventually } from '../../harness/cluster.js';
import { runControlPlane } from '../../harness/run-control-plane.js';

const script = new URL('./scripts/start-and-crash.ts', import.meta.url).pathname;

/** Runs the crash script, returns the PIDs it reported and a handle on the child. */
function startChild(mode: 'throw' | 'wait') {
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const reported = new Promise<{ pids: number[]; etcdDir: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { pids: number[]; etcdDir: string });
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code} before reporting`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, reported, exited };
}

describe('control-plane process lifecycle', () => {
  it('runs a second instance beside the test run without colliding, and stop() leaves nothing behind', async () => {
    const second = await LocalControlPlane.start();
    const pids = second.pids;
    try {
      expect(second.info.server).not.toBe(runControlPlane().server);
      expect(pids.every(isAlive)).toBe(true);
      const a = await KubeClient.load({ kubeconfig: second.info.kubeconfig });
      const b = await KubeClient.load({ kubeconfig: runControlPlane().kubeconfig });
      await a.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'only-in-second' } } });
      await expect(b.request('GET', '/api/v1/namespaces/only-in-second')).rejects.toMatchObject({
        status: 404,
      });
      a.close();
      b.close();
    } finally {
      await second.stop();
    }
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(second.info.etcdDir)).toBe(false);
    expect(existsSync(second.info.workDir)).toBe(false);
    // The run's own control plane is untouched.
    expect(runControlPlane().pids.every(isAlive)).toBe(true);
  });

  it('kills its processes when the owning Node process dies of an uncaught error', async () => {
    const { reported, exited } = startChild('throw');
    const { pids, etcdDir } = await reported;
    await exited;
    await eventually(async () => (pids.some(isAlive) ? undefined : true), 10_000, 'children to die');
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(etcdDir)).toBe(false);
  });

  it('kills its processes on Ctrl-C (SIGINT to the owner)', async () => {
    const { child, reported, exited } = startChild('wait');
    const { pids, etcdDir } = await reported;
    expect(pids.every(isAlive)).toBe(true);
    expect(existsSync(etcdDir)).toBe(true);
    child.kill('SIGINT');
    await exited;
    await eventually(async () => (pids.some(isAlive) ? undefined : true), 10_000, 'children to die');
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(etcdDir)).toBe(false);
  });
});
