import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { previewRevisions } from '../../src/cli/actions/preview.js';
import { git } from '../source/git.js';

// The preview exports both revisions without node_modules: their libraries come from the working
// tree's node_modules (issue 21: `preview` gave Could not resolve "cdk8s-plus-33"), with one copy
// of cdk8s and constructs (the working tree's, as npm installs them beside cdk8s-plus-33).
const REPO = fileURLToPath(new URL('../../', import.meta.url));

const main = (replicas: number) => `import { Platform, definePlatform, z } from 'groundwork-gitops';
import * as kplus from 'cdk8s-plus-33';
import { label } from 'only-here';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new kplus.Deployment(platform, 'web', {
      metadata: { namespace: 'apps', labels: { lib: label } },
      replicas: ${replicas},
      containers: [{ image: 'nginx', securityContext: { ensureNonRoot: false } }],
    });
  },
});
`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-preview-libs-'));
  const files: Record<string, string> = {
    'groundwork.yaml': 'name: libs\nentry: platform/main.ts\noverlays: overlays\n',
    'overlays/dev.yaml': '{}\n',
    'package.json': '{ "type": "module" }\n',
    '.gitignore': 'node_modules/\n',
    'platform/main.ts': main(1),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'init', '-q');
  git(dir, 'checkout', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  writeFileSync(join(dir, 'platform/main.ts'), main(3));
  git(dir, 'commit', '-q', '-am', 'three replicas');
  for (const pkg of ['cdk8s-plus-33', 'cdk8s', 'constructs'])
    cpSync(join(REPO, 'node_modules', pkg), join(dir, 'node_modules', pkg), {
      recursive: true,
      verbatimSymlinks: true,
    });
  const onlyHere = join(dir, 'node_modules', 'only-here');
  mkdirSync(onlyHere);
  writeFileSync(
    join(onlyHere, 'package.json'),
    '{ "name": "only-here", "version": "1.0.0", "type": "module", "main": "index.js" }',
  );
  writeFileSync(join(onlyHere, 'index.js'), "export const label = 'working-tree';\n");
});

describe('preview of a platform with libraries', { timeout: 180_000 }, () => {
  it("synthesizes both revisions with the working tree's node_modules", async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'main', overlay: 'dev' });
    const json = JSON.stringify(preview);
    expect(json).not.toMatch(/Could not resolve|_Lazy|SynthFailed|CompileFailed|BuildFailed/);
    expect(json).toContain('replicas');
  });
});
