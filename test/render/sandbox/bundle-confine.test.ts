import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleChild } from '../../../src/render/sandbox/bundle.js';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

// A secret planted where the issue found one: in this process's environment (the esbuild service
// this process starts inherits it, so `/proc/self/environ` of the bundler holds it) and in files
// outside any checkout.
const SECRET = `gw-planted-${randomBytes(8).toString('hex')}`;
process.env.GROUNDWORK_GIT_TOKEN = SECRET;
const OUTSIDE = mkdtempSync(join(tmpdir(), 'gw-outside-'));
writeFileSync(join(OUTSIDE, 'secret.json'), JSON.stringify({ token: SECRET }));
writeFileSync(join(OUTSIDE, 'secret.txt'), `token=${SECRET}\n`);
writeFileSync(join(OUTSIDE, 'unparsable.json'), `{ "token": ${SECRET} }`);
writeFileSync(join(OUTSIDE, 'main.ts'), `export default ${JSON.stringify(SECRET)};\n`);

/** A platform whose module starts with `imports` and puts `value` into a ConfigMap. */
const platform = (imports: string, value = "'none'") => `${imports}
import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'loot', namespace: 'default' }, data: { value: String(${value}) } });
  },
});
`;

/** Every file under `dir`, read (but those under its top-level directories `except`). */
function filesUnder(dir: string, except: readonly string[] = []): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !except.some((x) => e.parentPath.startsWith(join(dir, x))))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
}

/**
 * Runs `attempt` (a synth or a bundle) with a fresh bundle cache, expects it to fail, and checks
 * that the secret is in neither the error nor the cache, and that the cache holds no file.
 */
async function expectFailure(attempt: (cacheDir: string) => Promise<unknown>) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
  const err = await attempt(cacheDir).then(
    () => undefined,
    (e: unknown) => e as Error & { code?: string; subject?: string; fix?: string },
  );
  if (!err) throw new Error('synth succeeded');
  const everything = [String(err), err.stack ?? '', JSON.stringify(err), String(err.cause ?? '')];
  for (const text of everything) expect(text).not.toContain(SECRET);
  // A failed bundle writes nothing into the cache (the renderer's own bundle, Groundwork's code, aside).
  expect(filesUnder(cacheDir, ['renderer'])).toEqual([]);
  return err;
}

/** Synth in the child, as the agent and the preview run it. */
const failedSynth = (dir: string) =>
  expectFailure((cacheDir) => renderPlatform(dir, { domain: 'local', overlay: 'dev', cacheDir }));

/**
 * The bundler on its own: synth refuses a symlink out of the checkout before bundling
 * (`SymlinkOutsideCheckout`), and the bundler holds without that check.
 */
const failedBundle = (dir: string, entry = 'platform/main.ts') =>
  expectFailure((cacheDir) => bundleChild(dir, entry, { cacheDir }));

describe('bundling a platform reads nothing outside the checkout', () => {
  const routes: [string, (dir: string) => string, string][] = [
    [
      "the bundler's environment as text",
      () => "import loot from '/proc/self/environ' with { type: 'text' };",
      "import '/proc/self/environ' with { type: 'text' }",
    ],
    [
      'a file outside as text',
      () => `import loot from '${OUTSIDE}/secret.txt' with { type: 'text' };`,
      `import '${OUTSIDE}/secret.txt' with { type: 'text' }`,
    ],
    [
      'a file outside as bytes',
      () => `import loot from '${OUTSIDE}/secret.txt' with { type: 'bytes' };`,
      "with { type: 'bytes' }",
    ],
    [
      'a file outside with the default text loader',
      () => `import loot from '${OUTSIDE}/secret.txt';`,
      `import '${OUTSIDE}/secret.txt' resolves`,
    ],
    [
      'an absolute JSON file outside',
      () => `import loot from '${OUTSIDE}/secret.json';`,
      `import '${OUTSIDE}/secret.json' resolves`,
    ],
    [
      'a relative import escaping the checkout',
      (dir) => `import loot from '${relative(join(dir, 'platform'), OUTSIDE)}/secret.json';`,
      `/secret.json' resolves to ${OUTSIDE}/secret.json`,
    ],
    [
      'a JSON file that does not parse, outside',
      () => `import loot from '${OUTSIDE}/unparsable.json';`,
      `import '${OUTSIDE}/unparsable.json' resolves`,
    ],
    [
      "a file of Groundwork's install as text",
      () => "import loot from 'cdk8s/package.json' with { type: 'text' };",
      "import 'cdk8s/package.json' with { type: 'text' } loads",
    ],
  ];

  it.each(routes)('refuses %s, naming the importing line and the specifier', async (_what, imports, says) => {
    const dir = platformDir('');
    writeFileSync(join(dir, 'platform/main.ts'), platform(imports(dir), 'JSON.stringify(loot)'));
    const err = await failedSynth(dir);
    expect(err.code).toBe('ImportOutsideCheckout');
    expect(err.subject).toBe('platform/main.ts:1');
    expect(err.message).toContain(says);
    expect(err.fix).toMatch(/copy the file into the repository/);
  });

  it('refuses a symlink in the checkout to a file outside, in the bundler itself', async () => {
    const dir = platformDir(platform("import loot from './values.json';", 'JSON.stringify(loot)'));
    symlinkSync(join(OUTSIDE, 'secret.json'), join(dir, 'platform/values.json'));
    const err = await failedBundle(dir);
    expect(err).toMatchObject({ code: 'ImportOutsideCheckout', subject: 'platform/main.ts:1' });
    expect(err.message).toContain(`import './values.json' resolves to ${OUTSIDE}/secret.json`);
    // synth refuses the link before it bundles, and says so as clearly.
    expect((await failedSynth(dir)).message).toContain('platform/values.json');
  });

  it("never echoes esbuild's message about a file outside (a package.json reached through a symlink)", async () => {
    const dir = platformDir(platform("import { a } from 'x';", 'a'));
    mkdirSync(join(dir, 'node_modules/x'), { recursive: true });
    symlinkSync(join(OUTSIDE, 'unparsable.json'), join(dir, 'node_modules/x/package.json'));
    writeFileSync(join(dir, 'node_modules/x/index.js'), 'export const a = 1;\n');
    const err = await failedBundle(dir);
    expect(err.code).toBe('CompileFailed');
    expect(err.subject).toMatch(/^node_modules\/x\/package\.json:1:/);
    expect(err.message).toContain('outside the repository');
  });

  it.each([
    ['an absolute path', '/etc/passwd', 'must be a path relative to the repository, not an absolute path'],
    ['a path out of the repository', '../x.ts', 'must name a file inside the repository'],
  ])('refuses an entry that is %s, naming groundwork.yaml and the key', async (_what, entry, says) => {
    const dir = platformDir(platform(''));
    writeFileSync(join(dir, 'groundwork.yaml'), `name: test-platform\nentry: ${entry}\n`);
    const err = await failedSynth(dir);
    expect(err).toMatchObject({ code: 'InvalidConfig', subject: 'groundwork.yaml' });
    expect(err.message).toContain(`entry: ${says}`);
    expect(err.message).not.toMatch(/root:/);
  });

  it('refuses an entry that is a symlink to a module outside, in the bundler itself', async () => {
    const dir = platformDir(platform(''));
    symlinkSync(join(OUTSIDE, 'main.ts'), join(dir, 'platform/link.ts'));
    const err = await failedBundle(dir, 'platform/link.ts');
    expect(err).toMatchObject({ code: 'InvalidConfig', subject: 'groundwork.yaml' });
    expect(err.message).toContain(
      'entry: resolves (through a symbolic link) to a file outside the repository',
    );
  });

  it('still bundles files of the checkout (also as text, also through a symlink inside it) and JSON of the install', async () => {
    const dir = platformDir(
      platform(
        [
          "import motd from '../files/motd.txt' with { type: 'text' };",
          "import values from './linked.json';",
          "import cdk8s from 'cdk8s/package.json';",
        ].join('\n'),
        '`${motd.trim()} ${values.answer} ${cdk8s.name}`',
      ),
      { files: { 'files/motd.txt': 'hello\n', 'files/values.json': '{ "answer": 42 }' } },
    );
    symlinkSync(join(dir, 'files/values.json'), join(dir, 'platform/linked.json'));
    const [result] = await renderPlatform(dir, { domain: 'local', overlay: 'dev', cache: false });
    expect(result?.manifests.map((m) => m.object.data)).toEqual([{ value: 'hello 42 cdk8s' }]);
  });

  it('keeps the secret out of the CLI output and the cache of `groundwork synth`', async () => {
    const dir = platformDir(platform("import loot from '/proc/self/environ' with { type: 'text' };", 'loot'));
    const cache = mkdtempSync(join(tmpdir(), 'gw-cache-'));
    const r = await groundwork(['synth', '--dir', dir], {
      env: { GROUNDWORK_GIT_TOKEN: SECRET, GROUNDWORK_CACHE_DIR: cache },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("platform/main.ts:1: import '/proc/self/environ' with { type: 'text' }");
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    for (const text of filesUnder(cache)) expect(text).not.toContain(SECRET);
  });
});
