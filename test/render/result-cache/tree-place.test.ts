// Issue 36: where the renderer sees the tree decides whether the checkout's path is part of the
// result cache's key: one path for every checkout where the renderer has a root of its own, the
// tree's own path where its content could depend on it.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Isolation } from '../../../src/render/sandbox/isolation.js';
import { VIEW_TREE } from '../../../src/render/sandbox/render-view.js';
import { fromView, rendererTreePlace } from '../../../src/render/sandbox/tree-place.js';

const namespaces: Isolation = { mode: 'namespaces' };

/** A tree of `files` (path → text) in a fresh directory, by its real path. */
function tree(files: Record<string, (root: string) => string> = {}): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gw-tree-place-')));
  const all: Record<string, (root: string) => string> = {
    'platform/main.ts': () => 'export {};\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text(root));
  }
  return root;
}

describe('rendererTreePlace', () => {
  it.each<[string, Isolation | undefined, number, string | undefined]>([
    ['namespaces: the view path', namespaces, 0, VIEW_TREE],
    ['uid: the view path', { mode: 'uid', identity: { uid: 1000, gid: 1000 } }, 0, VIEW_TREE],
    ['trusted (no root of its own): its own path', { mode: 'trusted' }, 0, undefined],
    ['a renderer pod (sent as bytes): its own path', { mode: 'pod' }, 0, undefined],
    ['a remote renderer (no isolation here): its own path', undefined, 0, undefined],
    ['a link to an absolute path: its own path', namespaces, 1, undefined],
  ])('%s', async (_what, isolation, absoluteLinks, expected) => {
    expect(await rendererTreePlace({ isolation, treeRoot: tree(), absoluteLinks })).toBe(expected);
  });

  it.each<[string, Record<string, (root: string) => string>, string | undefined]>([
    ['a file naming the tree: its own path', { 'notes/where.txt': (r) => `at ${r}/x\n` }, undefined],
    ['a platform file naming it', { 'platform/paths.ts': (r) => `export const at = '${r}';\n` }, undefined],
    ['another directory named: the view path', { 'notes/where.txt': () => '/tmp/elsewhere\n' }, VIEW_TREE],
    ['its path in node_modules only: the view path', { 'node_modules/x/i.js': (r) => r }, VIEW_TREE],
    ['its path in .git only: the view path', { '.git/config': (r) => r }, VIEW_TREE],
  ])('%s', async (_what, files, expected) => {
    const treeRoot = tree(files);
    expect(await rendererTreePlace({ isolation: namespaces, treeRoot, absoluteLinks: 0 })).toBe(expected);
  });
});

describe('fromView', () => {
  it.each([
    ['the tree', `reading ${VIEW_TREE}/platform/main.ts failed`, 'reading /tmp/co/platform/main.ts failed'],
    ['the tree itself', `in ${VIEW_TREE}: no groundwork.yaml`, 'in /tmp/co: no groundwork.yaml'],
    ['a file: URL', `file://${VIEW_TREE}/m.yaml`, 'file:///tmp/co/m.yaml'],
    ['an import escaping it', `'../x' resolves to /groundwork/x/s.json`, `'../x' resolves to /tmp/x/s.json`],
    [
      'a URL path left alone',
      'see https://example.com/groundwork/tree/x',
      'see https://example.com/groundwork/tree/x',
    ],
    ['a longer name: beside the tree', `${VIEW_TREE}s/a`, '/tmp/trees/a'],
  ])('%s', (_what, text, expected) => {
    expect(fromView(text, VIEW_TREE, '/tmp/co')).toBe(expected);
  });
});
