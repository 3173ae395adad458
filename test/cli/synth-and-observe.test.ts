import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';

// plan, drift and apply start the synth child before they load the cluster client, and load it
// while the child runs (src/cli/synth-and-observe.ts). What they report must not depend on that
// overlap: a platform that fails synth is reported as such, never as a missing kubeconfig, and
// the cluster is not contacted. No cluster here: the kubeconfig is missing on purpose.
const noKube = { KUBECONFIG: join(tmpdir(), 'gw-no-such-kubeconfig'), HOME: tmpdir() };
let repo = '';

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'gw-synth-first-'));
  expect((await groundwork(['init', repo])).code).toBe(0);
}, 120_000);

describe('plan, drift and apply report synth before the cluster', () => {
  it('a validation error: the issues, exit 2, and no word of the kubeconfig', async () => {
    writeFileSync(join(repo, 'overlays', 'dev.yaml'), 'environment: dev\ncertManager:\n  channel: 7\n');
    for (const command of ['plan', 'drift', 'apply']) {
      const r = await groundwork([command, '--dir', repo], { env: noKube });
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toContain('synth failed: nothing was planned or applied');
      expect(r.stderr, command).not.toContain('kubeconfig');
    }
  }, 180_000);

  it('platform code that throws: its error, exit 2, and no word of the kubeconfig', async () => {
    writeFileSync(
      join(repo, 'platform', 'main.ts'),
      "import { definePlatform, z } from 'groundwork-gitops';\n" +
        "export default definePlatform({ values: z.object({}).loose(), build() { throw new Error('boom'); } });\n",
    );
    const r = await groundwork(['plan', '--dir', repo], { env: noKube });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('boom');
    expect(r.stderr).not.toContain('kubeconfig');
  }, 120_000);

  it('a valid platform gets as far as the cluster: the missing kubeconfig, exit 2', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'gw-synth-first-ok-'));
    expect((await groundwork(['init', fresh])).code).toBe(0);
    const r = await groundwork(['drift', '--dir', fresh], { env: noKube });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no kubeconfig found (tried');
  }, 120_000);

  it('a SopsSecret and no SOPS key: the missing kubeconfig first, not the key', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'gw-synth-first-sops-'));
    expect((await groundwork(['init', fresh])).code).toBe(0);
    mkdirSync(join(fresh, 'secrets'));
    const sealed = new URL('../../examples/charts-and-secrets/secrets/database.sops.yaml', import.meta.url);
    copyFileSync(sealed, join(fresh, 'secrets', 'database.sops.yaml'));
    writeFileSync(
      join(fresh, 'platform', 'main.ts'),
      "import { Platform, SopsSecret, definePlatform, z } from 'groundwork-gitops';\n" +
        'export default definePlatform({ values: z.object({}).loose(), build(scope) {\n' +
        "  const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });\n" +
        "  new SopsSecret(platform, 'database', { file: 'secrets/database.sops.yaml', name: 'database', namespace: 'web' });\n" +
        '} });\n',
    );
    const env = { ...noKube, SOPS_AGE_KEY_FILE: '', SOPS_AGE_KEY: '' };
    const r = await groundwork(['plan', '--dir', fresh], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no kubeconfig found (tried');
    expect(r.stderr).not.toMatch(/SOPS|age key/i);
  }, 120_000);
});
