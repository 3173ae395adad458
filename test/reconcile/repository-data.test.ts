import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPH_MAX_BYTES } from '../../src/cluster-version/graph-file.js';
import { loadPlatformData } from '../../src/reconcile/domains.js';
import { loadProject } from '../../src/project/project.js';
import { loadCatalog } from '../../src/olm/catalog/index.js';
import { groundwork } from '../harness/cli.js';
import { fixturePath } from '../harness/fixtures.js';
import { platformDir } from '../harness/platform-dir.js';

// The files groundwork.yaml names (overlays, catalogs, update graphs) are read by the agent and the
// CLI themselves, outside the synth sandbox: confined to the checkout by real path, and bounded.

const PLATFORM = `import { Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({ values: z.object({}), build(scope) { new Platform(scope, 'platform', { openshiftVersion: '4.16' }); } });
`;

/** A file outside the checkout whose every line holds a planted secret. */
function outsideSecret(name: string, text: (secret: string) => string): { secret: string; file: string } {
  const secret = `gw-planted-${randomBytes(8).toString('hex')}`;
  const file = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), name);
  writeFileSync(file, text(secret));
  return { secret, file };
}

function repo(config: string, files: Record<string, string> = {}): string {
  return platformDir(PLATFORM, { files: { 'groundwork.yaml': `name: data\n${config}`, ...files } });
}

function link(dir: string, path: string, target: string): void {
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  symlinkSync(target, join(dir, path));
}

/** The project of `dir`, then the catalogs and graphs it lists: as the agent reads a checkout. */
const platformData = async (dir: string) => loadPlatformData(await loadProject(dir));

const failure = (p: Promise<unknown>) => p.then(() => undefined).catch((e: unknown) => e);

describe('paths in groundwork.yaml stay in the checkout', () => {
  it('refuses `overlays: ../../..` with InvalidConfig naming the key, not a stack trace', async () => {
    const dir = repo('overlays: ../../..\n');
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    // The file and line once, then the key, then a fix.
    expect(r.stderr).toContain(
      'groundwork.yaml:2: overlays: must be a path inside the repository: relative, without ".." segments',
    );
    expect(r.stderr).not.toContain('groundwork.yaml: groundwork.yaml');
    expect(r.stderr).toMatch(/fix: correct groundwork\.yaml/);
    expect(r.stderr).not.toMatch(/\n\s+at |restricted/);
  });

  it('refuses graphs and catalogs that climb out of the checkout, without reading them', async () => {
    const { secret, file } = outsideSecret('graph.json', (s) => `${s}\n`);
    const dir = repo(`graphs: ['../${basename(dirname(file))}/graph.json']\n`);
    // The checkout and the file are siblings in the temp directory: `../<dir>/graph.json` reaches it.
    const byGraph = await failure(platformData(dir));
    expect(byGraph).toMatchObject({ code: 'InvalidConfig' });
    expect(String(byGraph)).toContain('graphs[0]: must be a path inside the repository');
    expect(String(byGraph)).not.toContain(secret);
    const byCatalog = await failure(platformData(repo(`catalogs: [/etc]\n`)));
    expect(String(byCatalog)).toContain('catalogs[0]: must be a path inside the repository');
  });

  it('refuses a graph or a catalog file that is a symbolic link to a file outside, naming the path only', async () => {
    const { secret, file } = outsideSecret(
      'stable.json',
      (s) => `{"nodes": [], "edges": [], "token": ${s}}\n`,
    );
    const dir = repo(`graphs: [graphs/stable.json]\n`);
    link(dir, 'graphs/stable.json', file);
    const err = await failure(platformData(dir));
    expect(err).toMatchObject({ code: 'PathOutsideCheckout', subject: 'graphs/stable.json' });
    expect(String(err)).not.toContain(secret);
    // One file of a catalog directory links out: the catalog is refused, the file named.
    const cat = repo(`catalogs: [catalogs/ops]\n`, {
      'catalogs/ops/a.yaml': 'schema: olm.package\nname: a\n',
    });
    link(cat, 'catalogs/ops/b.yaml', file);
    const byCatalog = await failure(platformData(cat));
    expect(byCatalog).toMatchObject({ code: 'PathOutsideCheckout', subject: 'catalogs/ops/b.yaml' });
    expect(String(byCatalog)).not.toContain(secret);
  });

  it('reads a real graph, and refuses one past GRAPH_MAX_BYTES before reading it', async () => {
    const dir = repo(`graphs: [graphs/stable-4.8.json, graphs/huge.json]\n`, { 'graphs/huge.json': '' });
    mkdirSync(join(dir, 'graphs'), { recursive: true });
    copyFileSync(fixturePath('update-graphs/stable-4.8.json'), join(dir, 'graphs/stable-4.8.json'));
    truncateSync(join(dir, 'graphs/huge.json'), GRAPH_MAX_BYTES + 1); // sparse: 4 MiB of NULs
    const err = await failure(platformData(dir));
    expect(err).toMatchObject({ code: 'FileTooLarge', subject: 'graphs/huge.json' });
    expect(String(err)).toContain('the update graph is 4.0 MiB; Groundwork reads at most 4 MiB from one');
    writeFileSync(join(dir, 'groundwork.yaml'), 'name: data\ngraphs: [graphs/stable-4.8.json]\n');
    const data = await platformData(dir);
    expect(data.graphs[0]!.nodes.length).toBeGreaterThan(50);
  });

  it('bounds `upgrade-path --graph`, the user’s own file, the same way', async () => {
    const big = join(mkdtempSync(join(tmpdir(), 'gw-graph-')), 'big.json');
    writeFileSync(big, '');
    truncateSync(big, GRAPH_MAX_BYTES + 1);
    const r = await groundwork(['upgrade-path', '--graph', big, '--from', '4.14.1', '--to', '4.15.1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the update graph is 4.0 MiB; Groundwork reads at most 4 MiB from one');
  });

  it('bounds a catalog by all its files together', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-catalog-'));
    writeFileSync(join(dir, 'a.yaml'), 'schema: olm.package\nname: a\n'.padEnd(600, '#'));
    writeFileSync(join(dir, 'b.yaml'), 'schema: olm.package\nname: b\n'.padEnd(600, '#'));
    const err = await failure(loadCatalog(dir, { maxBytes: 1000 }));
    expect(err).toMatchObject({ code: 'FileTooLarge', subject: dir });
    expect(String(err)).toContain("the catalog's files add up to more than 1000 bytes");
  });
});
