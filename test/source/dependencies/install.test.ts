import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { installDependencies } from '../../../src/source/dependencies/install.js';
import { startNpmRegistry, type NpmRegistry } from '../../harness/npm-registry.js';

// The agent's install of a platform repository's locked dependencies (issue 21): npm ci from a
// local registry (test/harness/npm-registry.ts: no internet), cached by lockfile, no scripts, no
// credentials, and refused for paths, links and URLs off the registry.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'gw-deps-'));
const scriptMarker = join(work, 'install-script-ran');
let registry: NpmRegistry;

const PLATFORM = `import { Platform, definePlatform, z } from 'groundwork-gitops';
import * as kplus from 'cdk8s-plus-33';
import { label } from 'gw-with-script';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new kplus.Deployment(platform, 'web', {
      metadata: { namespace: 'apps', labels: { lib: label } },
      containers: [{ image: 'nginx', securityContext: { ensureNonRoot: false } }],
    });
  },
});
`;

/** A platform repository (no node_modules) with package.json and, locked against `registry`, its lockfile. */
async function platformRepo(
  dependencies: Record<string, string>,
  opts: { lock?: boolean } = {},
): Promise<string> {
  const dir = mkdtempSync(join(work, 'repo-'));
  mkdirSync(join(dir, 'platform'));
  mkdirSync(join(dir, 'overlays'));
  writeFileSync(join(dir, 'groundwork.yaml'), 'name: deps\nentry: platform/main.ts\noverlays: overlays\n');
  writeFileSync(join(dir, 'overlays', 'dev.yaml'), '{}\n');
  writeFileSync(join(dir, 'platform', 'main.ts'), PLATFORM);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'platform', private: true, type: 'module', dependencies }, null, 2),
  );
  // Not execFileSync: the registry answers from this process.
  if (opts.lock !== false)
    await promisify(execFile)(
      'npm',
      [
        'install',
        '--package-lock-only',
        '--ignore-scripts',
        `--registry=${registry.url}`,
        '--loglevel=error',
      ],
      { cwd: dir, env: { ...process.env, npm_config_cache: join(work, 'npm-cache') } },
    );
  return dir;
}

/** A fake npm: records that it ran and its environment, then does `behaviour`. */
function fakeNpm(behaviour: string): { npm: string; ran: string } {
  const dir = mkdtempSync(join(work, 'fake-npm-'));
  const npm = join(dir, 'npm');
  const ran = join(dir, 'env');
  writeFileSync(npm, `#!/bin/sh\nenv > ${JSON.stringify(ran)}\n${behaviour}\n`);
  chmodSync(npm, 0o755);
  return { npm, ran };
}

async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string; fix?: string }> {
  return p.then(
    () => ({ message: 'resolved' }),
    (e: unknown) => e as { code?: string; message: string },
  );
}

beforeAll(async () => {
  const scripted = join(work, 'gw-with-script');
  mkdirSync(scripted);
  writeFileSync(
    join(scripted, 'package.json'),
    JSON.stringify({
      name: 'gw-with-script',
      version: '1.0.0',
      type: 'module',
      main: 'index.js',
      scripts: { preinstall: `touch ${scriptMarker}`, postinstall: `touch ${scriptMarker}` },
    }),
  );
  writeFileSync(join(scripted, 'index.js'), "export const label = 'from-registry';\n");
  registry = await startNpmRegistry([
    ...['cdk8s-plus-33', 'cdk8s', 'constructs'].map((p) => join(root, 'node_modules', p)),
    scripted,
  ]);
}, 120_000);

afterAll(() => registry.close());

const LIBS = {
  'cdk8s-plus-33': '2.5.57',
  cdk8s: '2.70.106',
  constructs: '10.8.1',
  'gw-with-script': '1.0.0',
};

describe('installDependencies', { timeout: 180_000 }, () => {
  it('installs the lockfile with no install script, reuses it while the lockfile is unchanged, and synth resolves from it', async () => {
    const dir = await platformRepo(LIBS);
    const cacheDir = join(work, 'cache-ok');
    const cold = await installDependencies({ dir, cacheDir, registry: registry.url });
    expect(cold?.cached).toBe(false);
    expect(existsSync(join(cold!.root, 'node_modules', 'cdk8s-plus-33', 'package.json'))).toBe(true);
    expect(existsSync(scriptMarker)).toBe(false);
    const requests = registry.requests.length;
    // Another checkout of the same commit (the agent exports each revision anew).
    const again = await platformRepo(LIBS, { lock: false });
    writeFileSync(join(again, 'package-lock.json'), readFileSync(join(dir, 'package-lock.json')));
    const hit = await installDependencies({ dir: again, cacheDir, registry: registry.url });
    expect(hit).toMatchObject({ cached: true, root: cold!.root });
    expect(registry.requests.length).toBe(requests);
    console.log(`dependency install: cold ${cold!.ms} ms, cache hit ${hit!.ms} ms`);

    const [result] = await renderPlatform(again, {
      domain: 'local',
      overlay: 'dev',
      cache: false,
      libraryRoots: [hit!.root],
    });
    const web = result!.manifests.map((m) => m.object).find((o) => o.kind === 'Deployment');
    expect(web?.metadata.labels).toMatchObject({ lib: 'from-registry' });
    expect(readdirSync(cacheDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a checkout without package-lock.json installs nothing', async () => {
    expect(
      await installDependencies({
        dir: await platformRepo(LIBS, { lock: false }),
        cacheDir: join(work, 'none'),
      }),
    ).toBe(undefined);
  });

  it("a package.json with devDependencies only (init's groundwork-gitops as a directory) installs nothing and runs no npm", async () => {
    const dir = await platformRepo({}, { lock: false });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'platform',
        private: true,
        devDependencies: { 'groundwork-gitops': `file:${root}` },
      }),
    );
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: {} }));
    const npm = fakeNpm('exit 1');
    expect(await installDependencies({ dir, cacheDir: join(work, 'dev-only'), npm: npm.npm })).toBe(
      undefined,
    );
    expect(existsSync(npm.ran)).toBe(false);
  });

  it('npm gets no credentials of the agent: no git token, webhook secret, AWS or kubeconfig variables, no npm_config', async () => {
    const dir = await platformRepo({ constructs: '10.8.1' });
    const { npm, ran } = fakeNpm('mkdir -p node_modules');
    const saved = { ...process.env };
    Object.assign(process.env, {
      GROUNDWORK_GIT_TOKEN: 'git-token-123',
      GROUNDWORK_WEBHOOK_SECRET: 'webhook-456',
      AWS_SECRET_ACCESS_KEY: 'aws-789',
      KUBECONFIG: '/secret/kubeconfig',
      npm_config__authToken: 'npm-000',
    });
    try {
      await installDependencies({ dir, cacheDir: join(work, 'cache-env'), registry: registry.url, npm });
    } finally {
      process.env = saved;
    }
    const env = readFileSync(ran, 'utf8');
    for (const secret of ['git-token-123', 'webhook-456', 'aws-789', '/secret/kubeconfig', 'npm-000'])
      expect(env).not.toContain(secret);
    expect(env).toMatch(/^HOME=.*\.tmp$/m);
  });

  it('refuses a file: dependency pointing out of the repository before npm runs', async () => {
    const dir = await platformRepo({ constructs: '10.8.1' });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    pkg.dependencies.etc = 'file:../../etc';
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    lock.packages['node_modules/etc'] = { resolved: '../../etc', link: true };
    lock.packages['../../etc'] = { version: '0.0.0' };
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    const { npm, ran } = fakeNpm('exit 0');
    const cacheDir = join(work, 'cache-file');
    const err = await rejection(installDependencies({ dir, cacheDir, registry: registry.url, npm }));
    expect(err.code).toBe('DependencyInstallFailed');
    expect(err.message).toMatch(/"etc" is not a registry version/);
    expect(err.message).toMatch(/"node_modules\/etc" is a link/);
    expect(existsSync(ran)).toBe(false);
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('reads no package-lock.json or package.json that links out of the checkout, and npm never runs', async () => {
    const outside = mkdtempSync(join(work, 'outside-'));
    const secret = join(outside, 'secret.json');
    writeFileSync(
      secret,
      JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/s3cret-key': {} } }),
    );
    for (const name of ['package-lock.json', 'package.json']) {
      const dir = await platformRepo({ constructs: '10.8.1' });
      rmSync(join(dir, name));
      symlinkSync(secret, join(dir, name));
      const { npm, ran } = fakeNpm('exit 0');
      const cacheDir = join(work, `cache-link-${name}`);
      const err = await rejection(installDependencies({ dir, cacheDir, registry: registry.url, npm }));
      expect(err.code).toBe('PathOutsideCheckout');
      expect(err.message).toContain(name);
      expect(err.message).not.toContain('s3cret');
      expect(err.message).not.toContain(outside);
      expect(existsSync(ran)).toBe(false);
      expect(existsSync(cacheDir)).toBe(false);
    }
  });

  it('refuses a lockfile entry resolved off the registry, naming the host only (a URL may carry a token)', async () => {
    const dir = await platformRepo({ constructs: '10.8.1' });
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    lock.packages['node_modules/constructs']!.resolved =
      'https://user:s3cret@evil.example/constructs-10.8.1.tgz';
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    const { npm, ran } = fakeNpm('exit 0');
    const err = await rejection(
      installDependencies({ dir, cacheDir: join(work, 'cache-url'), registry: registry.url, npm }),
    );
    expect(err.code).toBe('DependencyInstallFailed');
    expect(err.message).toContain(
      '"node_modules/constructs" resolves outside the registry (host evil.example)',
    );
    expect(err.message).not.toContain('s3cret');
    expect(existsSync(ran)).toBe(false);
  });

  it('stops npm after the timeout, and a failed install leaves nothing in the cache', async () => {
    const dir = await platformRepo({ constructs: '10.8.1' });
    const cacheDir = join(work, 'cache-slow');
    const slow = fakeNpm('sleep 30');
    const started = Date.now();
    const err = await rejection(
      installDependencies({ dir, cacheDir, registry: registry.url, npm: slow.npm, timeoutMs: 500 }),
    );
    expect(err.code).toBe('DependencyInstallFailed');
    expect(err.message).toMatch(/did not finish in/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const failing = fakeNpm('echo "npm error 404 Not Found - GET nope" >&2; exit 1');
    const failed = await rejection(
      installDependencies({ dir, cacheDir, registry: registry.url, npm: failing.npm }),
    );
    expect(failed.message).toMatch(/npm ci exited 1: 404 Not Found - GET nope/);
    expect(readdirSync(cacheDir).filter((n) => !n.startsWith('.'))).toEqual([]);
  });
});
