import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { cliSynth } from '../../harness/cli.js';
import { copyPackages, fakePackage, platformDir } from '../../harness/platform-dir.js';

// One copy of cdk8s and constructs in every route (issue 21, libraries in platform repositories):
// a platform whose node_modules holds cdk8s-plus-33 with its peers cdk8s and constructs (as `npm
// install cdk8s-plus-33` leaves it), or none at all with the libraries in a library root (the
// agent's dependency cache, the preview's working tree).

const PLATFORM = `import { Platform, definePlatform, z } from 'groundwork-gitops';
import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new kplus.Deployment(platform, 'web', {
      metadata: { namespace: 'apps' },
      containers: [{ image: 'nginx', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
    });
    new ApiObject(platform, 'cm', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'lazy', namespace: 'apps' },
      data: { value: Lazy.any({ produce: () => 'produced' }) },
    });
  },
});
`;

/** The platform, importing also `only-here`, a library Groundwork's install does not have. */
const PLATFORM_ONLY_HERE = PLATFORM.replace(
  "import * as kplus from 'cdk8s-plus-33';",
  "import * as kplus from 'cdk8s-plus-33';\nimport { label } from 'only-here';",
).replace("metadata: { namespace: 'apps' },", "metadata: { namespace: 'apps', labels: { lib: label } },");

/** The platform's repository in a temp dir (nothing of this checkout above it). */
const platformRepo = (main = PLATFORM): string => platformDir(main, { name: 'libs' });

/** cdk8s-plus-33 and its peers in `<dir>/node_modules`, and the package only-here. */
function withLibraries(dir: string): string {
  copyPackages(dir);
  fakePackage(dir, 'only-here', "export const label = 'only-here';\n");
  return dir;
}

const expectSynthesized = (objects: K8sObject[]) => {
  expect(objects.find((o) => o.kind === 'Deployment')?.metadata.name).toMatch(/^platform-web/);
  expect(objects.find((o) => o.kind === 'ConfigMap')).toMatchObject({ data: { value: 'produced' } });
};

describe('one copy of cdk8s and constructs', { timeout: 120_000 }, () => {
  it("a platform with its own cdk8s and constructs: the platform's copies win, through the CLI", async () => {
    const result = await cliSynth(withLibraries(platformRepo()));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectSynthesized(result.objects);
  });

  it("a platform with its own cdk8s and constructs: the platform's copies win, in the synth child", async () => {
    const [result] = await renderPlatform(withLibraries(platformRepo()), {
      domain: 'local',
      overlay: 'dev',
      cache: false,
    });
    expectSynthesized(result!.manifests.map((m) => m.object));
  });

  it('a checkout without node_modules resolves its libraries from a library root (the dependency cache)', async () => {
    const libs = withLibraries(mkdtempSync(join(tmpdir(), 'gw-library-root-')));
    const [result] = await renderPlatform(platformRepo(PLATFORM_ONLY_HERE), {
      domain: 'local',
      overlay: 'dev',
      cache: false,
      libraryRoots: [libs],
    });
    const objects = result!.manifests.map((m) => m.object);
    expectSynthesized(objects);
    expect(objects.find((o) => o.kind === 'Deployment')?.metadata.labels).toMatchObject({ lib: 'only-here' });
  });

  it('a fresh clone (package-lock.json, no node_modules) is told to install its dependencies, through the CLI', async () => {
    const dir = platformRepo(PLATFORM_ONLY_HERE);
    writeFileSync(join(dir, 'package-lock.json'), '{ "lockfileVersion": 3, "packages": {} }\n');
    const result = await cliSynth(dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Could not resolve "only-here"');
    expect(result.stderr).toContain('npm ci');
  });

  it("a library root whose node_modules is a link out of it is not used, and nothing under the link's target is bundled", async () => {
    const elsewhere = withLibraries(mkdtempSync(join(tmpdir(), 'gw-elsewhere-')));
    const libs = mkdtempSync(join(tmpdir(), 'gw-library-root-'));
    symlinkSync(join(elsewhere, 'node_modules'), join(libs, 'node_modules'));
    const err = await renderPlatform(platformRepo(PLATFORM_ONLY_HERE), {
      domain: 'local',
      overlay: 'dev',
      cache: false,
      libraryRoots: [libs],
    }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; message: string },
    );
    expect(err?.code).toBe('CompileFailed');
    expect(err?.message).toMatch(/Could not resolve "only-here"/);
    expect(err?.message).not.toContain(elsewhere);
  });
});
