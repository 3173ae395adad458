import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { synthesizeInChild } from '../../src/synth/child/run-in-child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'groundwork.js');

/** A platform repository in a temp dir (nothing of this checkout above it). */
function repo(files: Record<string, string>, opts: { packageJson?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-platform-deps-'));
  const all: Record<string, string> = {
    'groundwork.yaml': 'name: deps\nentry: platform/main.ts\noverlays: overlays\n',
    'overlays/dev.yaml': '{}\n',
    ...(opts.packageJson === false ? {} : { 'package.json': '{ "type": "module" }\n' }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A tiny package in a repository's node_modules. */
function fakePackage(dir: string, name: string, version: string, body: string): void {
  const pkg = join(dir, 'node_modules', name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name, version, type: 'module', main: 'index.js' }),
  );
  writeFileSync(join(pkg, 'index.js'), body);
}

/** `groundwork synth` through the real CLI, in the repository. */
function cliSynth(dir: string): Promise<{ code: number; objects: K8sObject[]; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, 'synth', '--dir', dir],
      { cwd: dir },
      (_e, stdout, stderr) =>
        resolve({
          code: child.exitCode ?? 1,
          objects: parseAllDocuments(stdout)
            .map((d) => d.toJS() as K8sObject)
            .filter(Boolean),
          stderr,
        }),
    );
  });
}

/** The synth child the agent and the preview use. */
async function childSynth(dir: string): Promise<K8sObject[]> {
  const [result] = await synthesizeInChild({ dir, overlay: 'dev' });
  return result!.manifests.map((m) => m.object);
}

const PLUS_PLATFORM = `import { Platform, definePlatform, z } from 'groundwork-gitops';
import * as kplus from 'cdk8s-plus-33';
import { label } from 'only-here';
// @ts-expect-error the platform's own yaml package (a stand-in), not Groundwork's
import { whoami } from 'yaml';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new kplus.Deployment(platform, 'web', {
      metadata: { namespace: 'apps', labels: { lib: label, yaml: whoami } },
      containers: [{ image: 'nginx', portNumber: 8080, securityContext: { ensureNonRoot: false } }],
    });
  },
});
`;

const IMPORTED_PLATFORM = `import { Platform, definePlatform, z } from 'groundwork-gitops';
import { OperatorGroup } from '../imports/operators.coreos.com.js';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new OperatorGroup(platform, 'og', {
      metadata: { name: 'monitoring', namespace: 'monitoring' },
      spec: { targetNamespaces: ['monitoring'], upgradeStrategy: 'Default' },
    });
  },
});
`;

describe('platform repositories with their own dependencies', () => {
  // Its own node_modules: a real copy of cdk8s-plus-33 (no cdk8s or constructs beside it: those come
  // from Groundwork's install), a package Groundwork does not have, and a `yaml` of its own.
  const plusRepo = () => {
    const dir = repo({ 'platform/main.ts': PLUS_PLATFORM });
    cpSync(join(root, 'node_modules', 'cdk8s-plus-33'), join(dir, 'node_modules', 'cdk8s-plus-33'), {
      recursive: true,
    });
    fakePackage(dir, 'only-here', '1.0.0', "export const label = 'only-here';\n");
    fakePackage(dir, 'yaml', '0.0.1-platform', "export const whoami = 'platform-yaml';\n");
    return dir;
  };

  const expectWeb = (objects: K8sObject[]) => {
    const web = objects.find((o) => o.kind === 'Deployment');
    expect(web?.metadata.labels).toMatchObject({ lib: 'only-here', yaml: 'platform-yaml' });
    expect(web?.metadata.namespace).toBe('apps');
  };

  it('synthesizes a cdk8s-plus platform through the CLI, the platform packages first', async () => {
    const result = await cliSynth(plusRepo());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectWeb(result.objects);
  });

  it('synthesizes the same in the synth child the agent and the preview use', async () => {
    expectWeb(await childSynth(plusRepo()));
  });

  it('synthesizes a class generated by `cdk8s import`, in a repository with no node_modules and no package.json', async () => {
    const dir = repo({ 'platform/main.ts': IMPORTED_PLATFORM }, { packageJson: false });
    mkdirSync(join(dir, 'imports'));
    cpSync(
      join(root, 'test', 'fixtures', 'cdk8s-import', 'operators.coreos.com.ts'),
      join(dir, 'imports', 'operators.coreos.com.ts'),
    );
    const expected = {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: 'monitoring', namespace: 'monitoring' },
      spec: { targetNamespaces: ['monitoring'], upgradeStrategy: 'Default' },
    };
    const cli = await cliSynth(dir);
    expect(cli.stderr).toBe('');
    expect(cli.objects).toMatchObject([expected]);
    expect(await childSynth(dir)).toMatchObject([expected]);
  });
});
