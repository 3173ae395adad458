import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { riskyChanges } from '../../src/cli/actions/fleet.js';
import { previewRevisions } from '../../src/cli/actions/preview.js';
import { previewMarkdown, previewText } from '../../src/report/preview/index.js';
import { git } from '../source/git.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let baseOid: string;

beforeAll(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'gw-reach-')), 'platform-repo');
  for (const p of ['groundwork.yaml', 'platform', 'overlays', 'catalogs', 'package.json'])
    cpSync(join(REPO, p), join(dir, p), { recursive: true });
  writeFileSync(
    join(dir, 'groundwork.yaml'),
    `${readFileSync(join(dir, 'groundwork.yaml'), 'utf8')}environments:
  - { name: dev, overlays: [dev], ref: main }
  - { name: staging, overlays: [staging], ref: env/staging, promotedFrom: dev, soak: 1h }
  - { name: prod, overlays: [prod, clusters/prod-eu-1], ref: env/prod, promotedFrom: staging, soak: 4h }
`,
  );
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'platform with environments');
  baseOid = git(dir, 'rev-parse', 'HEAD').trim();
  git(dir, 'checkout', '-q', '-b', 'feature');
  const dev = join(dir, 'overlays', 'dev.yaml');
  writeFileSync(dev, readFileSync(dev, 'utf8').replace('loglevel=7', 'loglevel=6'));
  git(dir, 'commit', '-q', '-am', 'quieter kernel');
  git(dir, 'checkout', '-q', '-b', 'prod-minor', 'main');
  const prod = join(dir, 'overlays', 'prod.yaml');
  writeFileSync(
    prod,
    readFileSync(prod, 'utf8').replace(
      'channel: stable-4.14\n  version: 4.14.38',
      'channel: stable-4.15\n  version: 4.15.30',
    ),
  );
  git(dir, 'commit', '-q', '-am', 'prod to 4.15');
  git(dir, 'checkout', '-q', 'feature');
});

describe('the preview says where a change goes once merged', () => {
  it('into main: dev at once, staging and prod only by promotion', async () => {
    const preview = await previewRevisions({ repoDir: dir, base: 'main', head: 'feature', overlay: 'dev' });
    expect(preview.reach).toEqual({ branch: 'main', now: ['dev'], byPromotion: ['staging', 'prod'] });
    expect(previewText(preview)).toContain(
      'Reaches dev as soon as it is merged into main; staging, prod only by promotion (groundwork promote).',
    );
    expect(previewMarkdown(preview)).toContain('Reaches dev as soon as it is merged into main');
  }, 120_000);

  it('says nothing about environments when the base is a commit, not a branch', async () => {
    const preview = await previewRevisions({ repoDir: dir, base: baseOid, head: 'feature', overlay: 'dev' });
    expect(preview.reach).toBeUndefined();
  }, 120_000);
});

describe('what a promotion window guards', () => {
  it('finds the ClusterVersion change a commit brings to prod, and nothing for a dev-only change', async () => {
    const risky = await riskyChanges(dir, 'main', 'prod-minor', ['prod']);
    expect(risky.map((r) => r.code)).toContain('ClusterVersionMinor');
    expect(risky.find((r) => r.code === 'ClusterVersionMinor')!.subject).toContain('[prod]');
    const devOnly = await riskyChanges(dir, 'main', 'feature', ['prod']);
    expect(devOnly.filter((r) => /^(ClusterVersion|MachineConfig)/.test(r.code))).toEqual([]);
  }, 120_000);
});
