import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { previewRevisions } from '../../src/cli/actions/preview.js';
import { copyPackages, fakePackage, platformDir } from '../harness/platform-dir.js';
import { git } from '../source/git.js';

// The preview exports both revisions without node_modules: their libraries come from the working
// tree's node_modules (issue 21: `preview` gave Could not resolve "cdk8s-plus-33"), with one copy
// of cdk8s and constructs (the working tree's, as npm installs them beside cdk8s-plus-33).

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
  dir = platformDir(main(1), { name: 'libs', files: { '.gitignore': 'node_modules/\n' } });
  git(dir, 'init', '-q');
  git(dir, 'checkout', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  writeFileSync(join(dir, 'platform/main.ts'), main(3));
  git(dir, 'commit', '-q', '-am', 'three replicas');
  copyPackages(dir);
  fakePackage(dir, 'only-here', "export const label = 'working-tree';\n");
});

describe('preview of a platform with libraries', { timeout: 180_000 }, () => {
  it("synthesizes both revisions with the working tree's node_modules", async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main~1', head: 'main', overlay: 'dev' });
    const json = JSON.stringify(preview);
    expect(json).not.toMatch(/Could not resolve|_Lazy|SynthFailed|CompileFailed|BuildFailed/);
    expect(json).toContain('replicas');
  });
});
