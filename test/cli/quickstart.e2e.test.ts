import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../harness/cli.js';

const bin = BIN;

/** `groundwork quickstart --keep-running`: its output up to the dashboard line, then Ctrl-C. */
describe('groundwork quickstart', () => {
  it('runs the whole demo on its own control plane, explains each step, serves the dashboard while kept running and exits cleanly on Ctrl-C', async () => {
    const child = spawn(process.execPath, [bin, 'quickstart', '--timeout', '180', '--keep-running'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<URL>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /Dashboard \(read-only\): (\S+)\n/.exec(stdout);
        if (m) resolve(new URL(m[1]!));
      });
      void exited.then((code) => reject(new Error(`quickstart exited ${code}: ${stderr.slice(-2000)}`)));
    });
    try {
      for (const n of [1, 2, 3, 4, 5, 6]) expect(stdout).toContain(`[${n}/6]`);
      expect(stdout).toMatch(/Subscription\/kepler-operator\/kepler-operator\s+Healthy\s+AtLatestKnown/);
      expect(stdout).toMatch(/ArgoCD\/platform-gitops\/platform\s+Healthy/);
      expect(stdout).toMatch(/ClusterVersion history \(newest first\): 4\.16\.20 ← /);
      // Step 3 waits on the agent's PlatformSync status, not on the agent's memory (progress is on stderr).
      expect(stderr).toMatch(
        /converged at main@sha1:[0-9a-f]{40} in [\d.]+ s \(PlatformSync groundwork-system\/example-platform-dev Ready\)/,
      );
      // Step 5 reports the agent's answers as the cluster holds them: its two Events on the object.
      expect(stdout).toContain(
        'Event DriftDetected on the object: "/data/owner is "someone-else", git has "platform-team" (changed by kubectl-edit)"',
      );
      expect(stdout).toMatch(
        /restored \d+ ms after the edit; Event DriftCorrected: "restored \/data\/owner as in git \(main@sha1:/,
      );
      expect(stdout).toContain('restored the field from git');

      // The dashboard over the demo: on 127.0.0.1, behind the printed token, with git's side known.
      expect(url.hostname).toBe('127.0.0.1');
      const base = `http://127.0.0.1:${url.port}`;
      expect((await fetch(`${base}/objects`)).status).toBe(401);
      const first = await fetch(url, { redirect: 'manual' });
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const page = async (path: string) => {
        const res = await fetch(`${base}${path}`, { headers: { cookie } });
        expect(res.status, path).toBe(200);
        return res.text();
      };
      expect(await page('/')).toMatch(/main@sha1:[0-9a-f]{40}/);
      const objects = await page('/objects?text=platform-info');
      const link = /href="(\/objects\/[^"?]*platform-info[^"?]*)"/.exec(objects)?.[1];
      expect(link).toBeDefined();
      const object = await page(link!);
      expect(object).toContain('<h2>Desired object</h2>');
      expect(object).toContain('platform-team');
      expect(await page('/openshift')).toContain('4.16.20');
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      clearTimeout(killer);
    }
  }, 320_000);
});
