import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { previewRevisions } from '../../src/cli/actions/preview.js';
import { registerPreview } from '../../src/cli/commands/preview.js';
import { useRedactionKey } from '../../src/core/redaction-key.js';
import { previewMarkdown, previewText } from '../../src/report/preview/index.js';
import { expectGolden } from '../harness/golden.js';
import { git } from '../source/git.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const GOLDEN = fileURLToPath(new URL('./golden/', import.meta.url));

let root: string;
let dir: string;
let baseOid: string;
let headOid: string;

/** Replaces `from` by `to` in a file of the temporary repository; fails when `from` is not there. */
function edit(file: string, from: string | RegExp, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text)
    throw new Error(
      `${file} no longer contains ${String(from)}: update this test's edits to the example platform`,
    );
  writeFileSync(path, next);
}

/** Oids depend on every copied byte; the golden file names the commits by role. */
function normalize(text: string): string {
  return text.replaceAll(baseOid.slice(0, 7), '<base>').replaceAll(headOid.slice(0, 7), '<head>');
}

beforeAll(() => {
  // Secret values in the golden file are tagged under this key (a run's own key would change them).
  useRedactionKey({ bytes: Buffer.from('the preview golden files redaction key'), source: 'env' });
  root = mkdtempSync(join(tmpdir(), 'gw-preview-'));
  dir = join(root, 'platform-repo');
  for (const p of ['groundwork.yaml', 'platform', 'overlays', 'catalogs', 'package.json'])
    cpSync(join(REPO, p), join(dir, p), { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'platform as in the repository');
  baseOid = git(dir, 'rev-parse', 'HEAD');

  // A realistic change to production: the next minor (and the channel that offers it), a GitOps
  // channel, the Kepler pin one release up, cert-manager dropped, chrony on the workers, a Secret.
  edit(
    'overlays/prod.yaml',
    'channel: stable-4.14\n  version: 4.14.38',
    'channel: stable-4.15\n  version: 4.15.30',
  );
  edit('overlays/prod.yaml', /gitops:\n {2}channel: latest/, 'gitops:\n  channel: gitops-1.15');
  edit('overlays/prod.yaml', 'pin: kepler-operator.v0.21.0', 'pin: kepler-operator.v0.22.0');
  edit('overlays/prod.yaml', '    - 1.rhel.pool.ntp.org', '    - ntp1.example.com');
  edit(
    'platform/main.ts',
    /\n {4}\/\/ cert-manager operator for Red Hat OpenShift\.\n {4}new PlatformOperator\(platform, 'cert-manager', \{[^}]*\}\);\n/,
    '\n',
  );
  edit(
    'platform/main.ts',
    '    new ClusterVersionTarget(',
    `    new ApiObject(platform, 'repo-creds', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'platform-repo', namespace: 'platform-gitops', labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
      stringData: { url: 'https://git.example.com/platform.git', password: 'hunter2-do-not-print' },
    });

    new ClusterVersionTarget(`,
  );
  git(dir, 'commit', '-q', '-am', 'prod: 4.15, gitops-1.15, kepler 0.22; drop cert-manager; chrony');
  headOid = git(dir, 'rev-parse', 'HEAD');

  // A head that does not synthesize: a pin the catalog does not have, and a channel that does not
  // offer the target. The construct refuses the channel inside the renderer; the pin is checked
  // against the catalogs on the trusted side only once a render succeeds, so it is not listed.
  git(dir, 'checkout', '-q', '-b', 'broken', baseOid);
  writeFileSync(
    join(dir, 'overlays/prod.yaml'),
    readFileSync(join(dir, 'overlays/prod.yaml'), 'utf8')
      .replace('kepler-operator.v0.21.0', 'kepler-operator.v9.9.9')
      .replace('channel: stable-4.14', 'channel: stable-4.12'),
  );
  git(dir, 'commit', '-q', '-am', 'broken');

  // A head that renders but fails the post-synth checks: a pin the catalog does not have.
  git(dir, 'checkout', '-q', '-b', 'bad-pin', baseOid);
  edit('overlays/prod.yaml', 'pin: kepler-operator.v0.21.0', 'pin: kepler-operator.v9.9.9');
  git(dir, 'commit', '-q', '-am', 'bad pin');

  // A change to production's overlay file alone: dev and staging do not change, prod and the
  // cluster that extends it do.
  git(dir, 'checkout', '-q', '-b', 'prod-only', baseOid);
  edit('overlays/prod.yaml', 'pin: kepler-operator.v0.21.0', 'pin: kepler-operator.v0.22.0');
  git(dir, 'commit', '-q', '-am', 'prod: kepler 0.22');
  git(dir, 'checkout', '-q', 'main');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('previewRevisions over two commits of a platform repository', () => {
  it('previews the production change (golden)', async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'main', overlay: 'prod' });
    expect(preview.status).toBe('ok');
    expect(preview.head.revision).toEqual({ ref: 'main', oid: headOid });
    const codes = preview.overlays[0]!.risks.map((r) => r.code);
    for (const code of [
      'ClusterVersionMinor',
      'ClusterVersionChannel',
      'SubscriptionChannel',
      'SubscriptionPin',
      'NamespacePruned',
      'MachineConfigPoolRolls',
    ])
      expect(codes).toContain(code);
    const md = previewMarkdown(preview);
    expect(md).not.toContain('hunter2');
    expect(md).not.toContain(root);
    expectGolden(join(GOLDEN, 'preview-prod.md'), normalize(md));
  });

  it('a head with validation errors yields the error preview, every issue with its path (golden)', async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'broken', overlay: 'prod' });
    expect(preview.status).toBe('head-failed');
    expect(preview.overlays).toEqual([]);
    expect(preview.head.failure!.code).toBe('ValidationFailed');
    expect(preview.head.failure!.issues.map((i) => i.path).join('\n')).toMatch(
      /overlays\/prod\.yaml|platform\//,
    );
    const md = previewMarkdown(preview);
    expect(md).not.toContain(root);
    expect(md).not.toContain(tmpdir());
    expectGolden(
      join(GOLDEN, 'preview-head-invalid.md'),
      normalize(md).replaceAll(git(dir, 'rev-parse', 'broken').slice(0, 7), '<broken>'),
    );
  });

  it('a head whose pin is in no catalog yields the error preview, the pin with its overlay line (golden)', async () => {
    const preview = await previewRevisions({
      repoDir: dir,
      base: 'main~1',
      head: 'bad-pin',
      overlay: 'prod',
    });
    expect(preview.status).toBe('head-failed');
    expect(preview.head.failure!.code).toBe('ValidationFailed');
    expect(preview.head.failure!.issues.map((i) => i.path)).toEqual(['platform/kepler']);
    const md = previewMarkdown(preview);
    expect(md).not.toContain(root);
    expectGolden(
      join(GOLDEN, 'preview-head-bad-pin.md'),
      normalize(md).replaceAll(git(dir, 'rev-parse', 'bad-pin').slice(0, 7), '<bad-pin>'),
    );
  });

  it('one overlay previewed says which other overlays change too, and which do not', async () => {
    const dev = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'prod-only', overlay: 'dev' });
    expect(dev.overlays[0]!.changes).toEqual([]);
    expect(dev.otherOverlays).toEqual({ changed: ['clusters/prod-eu-1', 'prod'], unchanged: ['staging'] });
    expect(previewText(dev)).toContain(
      'Other overlays: clusters/prod-eu-1, prod change too (preview with --all-overlays).',
    );
    const prod = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'prod-only', overlay: 'prod' });
    expect(prod.otherOverlays).toEqual({ changed: ['clusters/prod-eu-1'], unchanged: ['dev', 'staging'] });
    const all = await previewRevisions({
      repoDir: dir,
      base: 'main~1',
      head: 'prod-only',
      overlay: { all: true },
    });
    expect(all.otherOverlays).toBeUndefined();
  }, 240_000);

  it('leaves the checkout as it was', () => {
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(headOid);
  });
});

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  let code = -1;
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    const program = new Command('groundwork').exitOverride();
    registerPreview(program, (c) => {
      code = c;
    });
    await program.parseAsync(['node', 'groundwork', 'preview', ...args]);
  } finally {
    write.mockRestore();
  }
  return { code, out: chunks.join('') };
}

describe('groundwork preview', () => {
  it('--all-overlays --format json: every overlay, exit 0 even with risks', async () => {
    const { code, out } = await run(
      '--dir',
      dir,
      '--base',
      'main~1',
      '--head',
      'main',
      '--all-overlays',
      '--format',
      'json',
    );
    expect(code).toBe(0);
    const json = JSON.parse(out) as {
      apiVersion: string;
      kind: string;
      overlays: { overlay: string; status: string }[];
      risks: { high: number };
    };
    expect(json.apiVersion).toBe('groundwork.io/v1');
    expect(json.kind).toBe('Preview');
    expect(json.overlays.map((o) => o.overlay)).toEqual(['clusters/prod-eu-1', 'dev', 'prod', 'staging']);
    expect(json.overlays.every((o) => o.status === 'changed')).toBe(true);
    expect(json.risks.high).toBeGreaterThan(0);
    expect(out).not.toContain('hunter2');
  });

  it('a head that fails synth is a preview too: exit 0', async () => {
    const { code, out } = await run(
      '--dir',
      dir,
      '--base',
      'main',
      '--head',
      'broken',
      '--overlay',
      'prod',
      '--format',
      'text',
    );
    expect(code).toBe(0);
    expect(out).toContain('HEAD FAILS SYNTH (ValidationFailed');
  });

  it('--fail-on gates a pull request: exit 1 with the reason, exit 0 when nothing it names is found', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const broken = await run(
        '--dir',
        dir,
        '--base',
        'main',
        '--head',
        'broken',
        '--overlay',
        'prod',
        '--fail-on',
        'synth-error',
      );
      expect(broken.code).toBe(1);
      expect(stderr).toHaveBeenCalledWith(
        'preview gate (--fail-on synth-error): head does not synthesize (ValidationFailed)\n',
      );
      // main~1 → main has high notes (a minor update, reboots) but no blocker.
      const args = ['--dir', dir, '--base', 'main~1', '--head', 'main', '--all-overlays'];
      expect((await run(...args, '--fail-on', 'synth-error')).code).toBe(0);
      expect((await run(...args, '--fail-on', 'blocker')).code).toBe(0);
      const strict = await run(...args, '--fail-on', 'warning');
      expect(strict.code).toBe(1);
      expect(stderr).toHaveBeenCalledWith(
        expect.stringMatching(/^preview gate \(--fail-on warning\): \d+ high risk note\(s\)\n$/),
      );
    } finally {
      stderr.mockRestore();
    }
  });

  it('an unknown revision is an error (the CLI exits 2)', async () => {
    await expect(run('--dir', dir, '--base', 'no-such-branch', '--head', 'main')).rejects.toMatchObject({
      code: 'RevisionNotFound',
    });
  });

  it('--overlay and --all-overlays conflict', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(
        run('--dir', dir, '--base', 'main', '--head', 'main', '--overlay', 'dev', '--all-overlays'),
      ).rejects.toMatchObject({ code: 'commander.conflictingOption' });
    } finally {
      stderr.mockRestore();
    }
  });
});
