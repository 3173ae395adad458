import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogInvalidError,
  CatalogUnreadableError,
  listPackages,
  loadCatalog,
  readCatalogFiles,
} from '../../../src/olm/index.js';
import { FIXTURES, readFixture } from '../helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'groundwork-fbc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadCatalog', () => {
  it('reads one file', async () => {
    const catalog = await loadCatalog(`${FIXTURES}catalogs/nfs-provisioner-operator.yaml`);
    expect(listPackages(catalog).map((p) => p.name)).toEqual(['nfs-provisioner-operator']);
  });

  it('walks a directory recursively, in name order, skipping dot entries and other extensions', async () => {
    // Laid out like a catalog image: catalog/<package>/catalog.{yaml,json}, plus noise.
    await mkdir(join(dir, 'ecr'), { recursive: true });
    await mkdir(join(dir, 'kepler', 'nested'), { recursive: true });
    await mkdir(join(dir, '..data'), { recursive: true });
    await writeFile(join(dir, 'ecr', 'catalog.yaml'), await readFixture('catalogs/ecr-secret-operator.yaml'));
    await writeFile(
      join(dir, 'kepler', 'nested', 'catalog.yml'),
      await readFixture('catalogs/kepler-operator.yaml'),
    );
    await writeFile(
      join(dir, 'nfs.json'),
      '{"schema":"olm.package","name":"nfs","defaultChannel":"alpha"}\n' +
        '{"schema":"olm.channel","package":"nfs","name":"alpha","entries":[{"name":"nfs.v1.0.0"}]}\n' +
        '{"schema":"olm.bundle","name":"nfs.v1.0.0","package":"nfs","properties":[{"type":"olm.package","value":{"packageName":"nfs","version":"1.0.0"}}]}\n',
    );
    await writeFile(join(dir, 'README.md'), '# not a catalog\n');
    await writeFile(join(dir, '.indexignore'), '*.md\n');
    await writeFile(join(dir, '..data', 'broken.yaml'), 'schema: [\n');

    const files = await readCatalogFiles(dir);
    expect(files.map((f) => f.path.slice(dir.length + 1))).toEqual([
      'ecr/catalog.yaml',
      'kepler/nested/catalog.yml',
      'nfs.json',
    ]);
    const catalog = await loadCatalog(dir);
    expect(listPackages(catalog).map((p) => p.name)).toEqual([
      'ecr-secret-operator',
      'kepler-operator',
      'nfs',
    ]);
  });

  it('two states of the same catalog in one directory collide, and every problem names its file', async () => {
    await writeFile(join(dir, 'latest.yaml'), await readFixture('catalogs/registry-testdata-latest.yaml'));
    await writeFile(join(dir, 'old.yaml'), await readFixture('catalogs/registry-testdata-old.yaml'));
    const err = await loadCatalog(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogInvalidError);
    const problems = (err as CatalogInvalidError).problems;
    // old.yaml re-declares 3 packages, 3 channels and 7 bundles that latest.yaml already has.
    expect(problems).toHaveLength(13);
    expect(problems.every((p) => p.file === join(dir, 'old.yaml'))).toBe(true);
    expect(problems[0]).toMatchObject({
      blob: 'blob 1 (line 2, olm.package bar)',
      message: `package bar is already declared at ${join(dir, 'latest.yaml')} blob 1 (line 2, olm.package bar)`,
    });
  });

  it('a missing path or a directory without catalog files is CatalogUnreadable', async () => {
    await expect(loadCatalog(join(dir, 'nope'))).rejects.toBeInstanceOf(CatalogUnreadableError);
    await writeFile(join(dir, 'notes.txt'), 'hello');
    await expect(loadCatalog(dir)).rejects.toMatchObject({ code: 'CatalogUnreadable', subject: dir });
  });
});
