import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';

// The CLI habits that need no cluster: no kubeconfig anywhere, and unknown output formats (the ones
// that read a server are in cli-habits.e2e.test.ts).
const emptyHome = mkdtempSync(join(tmpdir(), 'gw-home-'));

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return groundwork(args, { env: { KUBERNETES_SERVICE_HOST: '', ...env } });
}

const noKube = { KUBECONFIG: '', HOME: emptyHome };
/** Each test runs the real CLI a few times (nine times for the formats): seconds each on a loaded machine. */
const CLI_TESTS_MS = 120_000;

describe('CLI habits of kubectl, flux and argocd users, without a cluster', () => {
  it(
    'version without any kubeconfig says what it tried and still prints the client version',
    async () => {
      const r = await run(['version'], noKube);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Client Version:');
      expect(r.stdout).toContain(
        `no kubeconfig found (tried $KUBECONFIG (unset), ${emptyHome}/.kube/config (missing), in-cluster service account (not in a pod))`,
      );
    },
    CLI_TESTS_MS,
  );

  it(
    'a command that needs a cluster, with no kubeconfig at all, says so and exits 2',
    async () => {
      const repo = mkdtempSync(join(tmpdir(), 'gw-nokube-'));
      expect((await run(['init', repo])).code).toBe(0);
      const r = await run(['catalog', 'packages', '--kubeconfig', join(repo, 'missing')], noKube);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('kubeconfig file not found');
      const plan = await run(['plan', '--dir', repo], noKube);
      expect(plan.code).toBe(2);
      expect(plan.stderr).toContain('no kubeconfig found (tried');
    },
    CLI_TESTS_MS,
  );

  it(
    '-o with an unknown format is a usage error naming the formats, exit 2, for every data command',
    async () => {
      for (const args of [
        ['synth', '-o', 'xml'],
        ['plan', '-o', 'xml'],
        ['apply', '-o', 'xml'],
        ['drift', '-o', 'xml'],
        ['catalog', 'packages', '-o', 'xml'],
        ['upgrade-path', '--graph', 'g.json', '--to', '4.16.1', '-o', 'xml'],
        ['preview', '--base', 'a', '--head', 'b', '-o', 'xml'],
        ['cluster', 'status', '-o', 'xml'],
        ['version', '-o', 'xml'],
      ]) {
        const r = await run(args, noKube);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toMatch(/argument 'xml' is invalid\. Allowed choices are .*yaml/);
      }
    },
    CLI_TESTS_MS,
  );
});
