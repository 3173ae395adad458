import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';

// plan, drift and apply resolve the kubeconfig and --context before synth (src/cli/synth-and-observe.ts).
// The platform here throws in build(): had synth run, its error ('boom') would be what they report.
// No server is contacted: the kubeconfig's servers are never dialled.
let repo = '';
let kubeconfig = '';
const env = () => ({ KUBECONFIG: kubeconfig, HOME: mkdtempSync(join(tmpdir(), 'gw-home-')) });

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'gw-context-first-'));
  expect((await groundwork(['init', repo])).code).toBe(0);
  writeFileSync(
    join(repo, 'platform', 'main.ts'),
    "import { definePlatform, z } from 'groundwork-gitops';\n" +
      "export default definePlatform({ values: z.object({}).loose(), build() { throw new Error('boom'); } });\n",
  );
  kubeconfig = join(repo, 'kubeconfig');
  const context = (name: string) => `- name: ${name}\n  context: { cluster: c, user: u }\n`;
  writeFileSync(
    kubeconfig,
    'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: { server: "https://127.0.0.1:1" }\n' +
      'users:\n- name: u\n  user: { token: not-a-real-token }\ncontexts:\n' +
      context('alpha') +
      context('beta') +
      'current-context: alpha\n',
  );
}, 120_000);

describe('plan, drift and apply check --context before synth', () => {
  it('an unknown context fails at once, naming it and the contexts that exist; synth never runs', async () => {
    for (const command of ['plan', 'drift', 'apply']) {
      const r = await groundwork([command, '--dir', repo, '--context', 'nope'], { env: env() });
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toContain(
        `context "nope": not found in kubeconfig ${kubeconfig}; available: alpha, beta`,
      );
      expect(r.stderr, command).not.toContain('boom');
    }
  }, 60_000);

  it('a --kubeconfig that does not exist fails before synth too', async () => {
    const r = await groundwork(['plan', '--dir', repo, '--kubeconfig', join(repo, 'missing')], {
      env: env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kubeconfig file not found');
    expect(r.stderr).not.toContain('boom');
  }, 60_000);

  it('a kubeconfig that is not YAML is named with its line, never quoted (it holds credentials)', async () => {
    const bad = join(repo, 'bad-kubeconfig');
    writeFileSync(bad, 'apiVersion: v1\nusers:\n- name: u\n  user: { token: SECRET-TOKEN-123\n');
    for (const args of [
      ['plan', '--dir', repo, '--kubeconfig', bad, '--context', 'alpha'],
      ['version', '--kubeconfig', bad],
    ]) {
      const r = await groundwork(args, { env: env() });
      expect(r.code, args[0]).toBe(2);
      expect(`${r.stdout}${r.stderr}`, args[0]).toContain(bad);
      expect(`${r.stdout}${r.stderr}`, args[0]).not.toContain('SECRET-TOKEN');
      expect(r.stderr, args[0]).not.toContain('boom');
    }
  }, 60_000);

  it('the context that exists gets past the check: synth runs (and fails here, with its own error)', async () => {
    const r = await groundwork(['plan', '--dir', repo, '--context', 'beta'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('boom');
  }, 120_000);
});
