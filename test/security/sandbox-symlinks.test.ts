import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderPlatform } from '../../src/render/render-platform.js';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';

// Node's permission model follows symbolic links below a granted path wherever they lead, and
// checks `a/link/../x` as `a/x`: synth refuses a checkout whose links could take a read outside.

/** A file outside every checkout holding a planted secret, one line per "account". */
function plantedSecret(): { secret: string; file: string; lines: string[] } {
  const secret = `gw-planted-${randomBytes(8).toString('hex')}`;
  const lines = [`root:${secret}:19000:0:99999:7:::`, `daemon:${secret}-2:19000:0:99999:7:::`];
  const file = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), 'shadow');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { secret, file, lines };
}

/** A platform with strict values (an unknown key is an error that quotes it) and one ConfigMap. */
const platform = (imports: string, value: string) => `${imports}
import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ replicas: z.number().optional() }).strict(),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe', namespace: 'default' }, data: { value: String(${value}) } });
  },
});
`;

const including = (url: string) => `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Include(new Platform(scope, 'platform', { openshiftVersion: '4.16' }), 'upstream', { url: ${JSON.stringify(url)} });
  },
});
`;

function link(dir: string, path: string, target: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  symlinkSync(target, join(dir, path));
}

describe('symbolic links in the checkout', () => {
  it('refuses an overlay that links to a file outside, naming the link and echoing no line of the file', async () => {
    const { secret, file } = plantedSecret();
    const dir = platformDir(platform('', "'x'"));
    link(dir, 'overlays/prod.yaml', file);
    const r = await groundwork(['synth', '--dir', dir, '--overlay', 'prod']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('overlays/prod.yaml: symbolic link leads outside the repository');
    expect(r.stdout + r.stderr).not.toContain(secret);
    const err = await renderPlatform(dir, { domain: 'local', overlay: 'prod' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SymlinkOutsideCheckout', subject: 'overlays/prod.yaml' });
  });

  it("refuses a link to /proc, so platform code cannot read its parent's environment", async () => {
    const secret = `gw-planted-${randomBytes(8).toString('hex')}`;
    // Every process's environ, through the link: the parent's holds the planted token.
    const read = `readdirSync('platform/proc.link').filter((p) => /^\\d+$/.test(p)).map((p) => { try { return readFileSync('platform/proc.link/' + p + '/environ', 'latin1'); } catch { return ''; } }).filter((e) => e.includes('GROUNDWORK_GIT_TOKEN')).join('|')`;
    const dir = platformDir(platform("import { readdirSync, readFileSync } from 'node:fs';", read));
    link(dir, 'platform/proc.link', '/proc');
    const r = await groundwork(['synth', '--dir', dir], { env: { GROUNDWORK_GIT_TOKEN: secret } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('platform/proc.link: symbolic link leads outside the repository');
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('refuses an Include of a link to a file outside', async () => {
    const secret = `gw-planted-${randomBytes(8).toString('hex')}`;
    const outside = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), 'cm.yaml');
    writeFileSync(
      outside,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loot\n  namespace: default\ndata:\n  token: ${secret}\n`,
    );
    const dir = platformDir(including('manifests/upstream.yaml'));
    link(dir, 'manifests/upstream.yaml', outside);
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('manifests/upstream.yaml: symbolic link leads outside the repository');
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('refuses a link to a directory above itself: `platform/up/../x` is checked as `platform/x`', async () => {
    const dir = platformDir(platform('', "'x'"));
    link(dir, 'platform/up', '..');
    const err = await renderPlatform(dir, { domain: 'local', overlay: 'dev' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SymlinkOutsideCheckout', subject: 'platform/up' });
    expect(String(err)).toContain('is a link to a directory above it (.)');
  });

  it('checks .git, node_modules and the rest of the commit, which the child may not read but can name', async () => {
    const dir = platformDir(platform('', "'x'"));
    link(dir, 'node_modules/evil', '/');
    const err = await renderPlatform(dir, { domain: 'local', overlay: 'dev' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SymlinkOutsideCheckout', subject: 'node_modules/evil' });
    // A platform in a subdirectory of the commit: a link beside it counts too.
    const commit = mkdtempSync(join(tmpdir(), 'gw-commit-'));
    const sub = platformDir(platform('', "'x'"));
    const inCommit = join(commit, 'clusters', 'prod');
    cpSync(sub, inCommit, { recursive: true }); // the platform, at clusters/prod of the commit
    link(commit, 'tools/escape', '/etc');
    const beside = await renderPlatform(inCommit, {
      domain: 'local',
      treeRoot: commit,
      overlay: 'dev',
    }).catch((e: unknown) => e);
    expect(beside).toMatchObject({ code: 'SymlinkOutsideCheckout', subject: 'tools/escape' });
  });

  it("synthesizes Groundwork's own repository, whose data/ and package.json are also the install's", async () => {
    // Node 20 aborts at start-up when one path is granted twice: every read path goes in once.
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const [result] = await renderPlatform(repo, { domain: 'local', overlay: 'dev' });
    expect(result!.manifests.length).toBeGreaterThan(0);
  });

  it('keeps links inside the checkout working: to files anywhere, to directories at their depth or deeper', async () => {
    const dir = platformDir(
      platform(
        "import { readFileSync } from 'node:fs';",
        "readFileSync('platform/files/motd', 'utf8').trim() + '/' + readFileSync('platform/motd.txt', 'utf8').trim()",
      ),
      {
        files: {
          'assets/files/motd': 'hello through a directory link\n',
          'config/prod.yaml': 'replicas: 3\n',
          'docs/motd.txt': 'and a file link\n',
        },
      },
    );
    link(dir, 'platform/files', '../assets/files'); // same depth
    link(dir, 'platform/motd.txt', '../docs/motd.txt'); // a file: any depth
    link(dir, 'overlays/prod.yaml', '../config/prod.yaml');
    link(dir, 'overlays/dangling.yml', 'nowhere.yaml'); // dangling, inside: harmless
    const r = await groundwork(['synth', '--dir', dir, '--overlay', 'prod']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('value: hello through a directory link/and a file link');
  });
});
