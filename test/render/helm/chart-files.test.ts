import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import {
  CHART_FILES_LIMITS,
  chartFilesOfArchive,
  chartFilesOfDirectory,
  chartPath,
} from '../../../src/render/helm/chart-files.js';

type Entry = Partial<Header> & { name: string; body?: string | Buffer };

/** A gzip'd tar of `entries`, written as a hostile archive could be (any name, type and size). */
async function tgz(entries: readonly Entry[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((resolve) => p.on('end', () => resolve()));
  for (const { body, ...header } of entries)
    await new Promise<void>((resolve, reject) =>
      body === undefined
        ? p.entry(header, (err) => (err ? reject(err) : resolve()))
        : p.entry(header, body, (err) => (err ? reject(err) : resolve())),
    );
  p.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

const CHART = 'apiVersion: v2\nname: hello\nversion: 1.0.0\n';

describe('chartFilesOfArchive', () => {
  it('reads Chart.yaml, values.yaml and templates, a subchart directory and a nested subchart archive, named as helm names them', async () => {
    const sub = await tgz([
      { name: 'db/Chart.yaml', body: 'apiVersion: v2\nname: db\nversion: 0.1.0\n' },
      { name: 'db/templates/s.yaml', body: 'kind: Secret' },
    ]);
    const chart = await tgz([
      { name: 'hello/Chart.yaml', body: CHART },
      { name: 'hello/values.yaml', body: 'a: 1\n' },
      { name: 'hello/templates/cm.yaml', body: 'kind: ConfigMap' },
      { name: 'hello/README.md', body: 'not read' },
      { name: 'hello/charts/web/values.yaml', body: 'port: 80\n' },
      { name: 'hello/charts/web/templates/d.yaml', body: 'kind: Deployment' },
      { name: 'hello/charts/db-0.1.0.tgz', body: sub },
    ]);
    const { files, incomplete } = await chartFilesOfArchive(chart);
    expect(incomplete).toBe(false);
    expect([...files.keys()].sort()).toEqual([
      'Chart.yaml',
      'charts/db/Chart.yaml',
      'charts/db/templates/s.yaml',
      'charts/web/templates/d.yaml',
      'charts/web/values.yaml',
      'templates/cm.yaml',
      'values.yaml',
    ]);
    expect(files.get('charts/db/templates/s.yaml')).toBe('kind: Secret');
  });

  it('hostile: entry names that climb out, absolute ones and links are skipped, and nothing is written to disk', async () => {
    const before = readdirSync(tmpdir()).sort();
    const chart = await tgz([
      { name: 'hello/Chart.yaml', body: CHART },
      { name: '../../evil/templates/a.yaml', body: 'x' },
      { name: 'hello/../../evil/templates/b.yaml', body: 'x' },
      { name: '/etc/hello/templates/c.yaml', body: 'x' },
      { name: 'hello/templates/./d.yaml', body: 'x' },
      { name: 'hello\\templates\\e.yaml', body: 'x' },
      { name: 'hello/templates/link.yaml', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'hello/templates/hard.yaml', type: 'link', linkname: 'hello/Chart.yaml' },
      { name: 'hello/templates/fifo.yaml', type: 'fifo' },
      { name: 'hello/templates/ok.yaml', body: 'kind: ConfigMap' },
    ]);
    const { files } = await chartFilesOfArchive(chart);
    expect([...files.keys()].sort()).toEqual(['Chart.yaml', 'templates/ok.yaml']);
    expect(
      readdirSync(tmpdir())
        .sort()
        .filter((n) => !before.includes(n) && /evil|hello/.test(n)),
    ).toEqual([]);
  });

  it('hostile: a file over the per-file bound is skipped unread, the rest is read', async () => {
    const chart = await tgz([
      { name: 'hello/templates/huge.yaml', body: Buffer.alloc(CHART_FILES_LIMITS.fileBytes + 1, 0x61) },
      { name: 'hello/templates/ok.yaml', body: 'kind: ConfigMap' },
    ]);
    const { files } = await chartFilesOfArchive(chart);
    expect([...files.keys()]).toEqual(['templates/ok.yaml']);
  });

  it('hostile: a gzip bomb stops at the total bound, incomplete, without throwing', async () => {
    const bomb = await tgz([
      { name: 'hello/templates/a.yaml', body: 'kind: ConfigMap' },
      { name: 'hello/files/zeros', body: Buffer.alloc(8 * 1024 * 1024) },
      { name: 'hello/templates/after.yaml', body: 'kind: ConfigMap' },
    ]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { files, incomplete } = await chartFilesOfArchive(bomb, {
      ...CHART_FILES_LIMITS,
      totalBytes: 1024 * 1024,
    });
    expect(incomplete).toBe(true);
    expect(files.has('templates/a.yaml')).toBe(true);
    expect(files.has('templates/after.yaml')).toBe(false);
  });

  it('hostile: too many entries stop the reading, incomplete', async () => {
    const many = await tgz(
      Array.from({ length: 50 }, (_, i) => ({ name: `hello/templates/${i}.yaml`, body: 'x' })),
    );
    const { files, incomplete } = await chartFilesOfArchive(many, { ...CHART_FILES_LIMITS, entries: 10 });
    expect(incomplete).toBe(true);
    expect(files.size).toBe(10);
  });

  it('bytes that are no archive give nothing, incomplete, without throwing', async () => {
    expect(await chartFilesOfArchive(Buffer.from('not a gzip stream'))).toEqual({
      files: new Map(),
      incomplete: true,
    });
  });
});

describe('chartFilesOfDirectory', () => {
  it('reads the chart and its subcharts (a directory and an archive in charts/), never following a link', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chart-files-'));
    const outside = mkdtempSync(join(tmpdir(), 'chart-outside-'));
    writeFileSync(join(outside, 'secret.yaml'), 'token: do-not-read');
    const write = (path: string, body: string | Buffer) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), body);
    };
    write('Chart.yaml', CHART);
    write('templates/cm.yaml', 'kind: ConfigMap');
    write('charts/web/templates/d.yaml', 'kind: Deployment');
    write(
      'charts/db-0.1.0.tgz',
      await tgz([
        { name: 'db/templates/s.yaml', body: 'kind: Secret' },
        { name: '../x/templates/y.yaml', body: 'x' },
      ]),
    );
    symlinkSync(join(outside, 'secret.yaml'), join(root, 'templates', 'link.yaml'));
    symlinkSync(outside, join(root, 'charts', 'linked'));
    const { files } = await chartFilesOfDirectory(root);
    expect([...files.keys()].sort()).toEqual([
      'Chart.yaml',
      'charts/db/templates/s.yaml',
      'charts/web/templates/d.yaml',
      'templates/cm.yaml',
    ]);
    expect([...files.values()].join()).not.toContain('do-not-read');
  });
});

describe('chartPath', () => {
  it('splits the top directory off, and refuses names that could leave the chart', () => {
    expect(chartPath('hello/templates/a.yaml')).toEqual({ top: 'hello', rest: 'templates/a.yaml' });
    expect(chartPath('./hello/values.yaml')).toEqual({ top: 'hello', rest: 'values.yaml' });
    for (const bad of ['hello', '/hello/a', 'hello/../a', 'hello//a', 'a\\b/c', 'hello/a\u0000b'])
      expect(chartPath(bad)).toBeUndefined();
  });
});
