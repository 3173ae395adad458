import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { graphFromCincinnati } from '../../src/cluster-version/graph.js';
import { parseChannelFile } from '../../src/cluster-version/graph-data.js';
import { jsonFailure, redactReason, yamlFailure } from '../../src/core/parse-failure.js';
import { parseObjects } from '../../src/core/yaml-files.js';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import { loadProjectConfig } from '../../src/project/config.js';
import { loadOverlayValues } from '../../src/render/synth/overlays.js';

// A parse error says file, line, column and the parser's reason: never a line of the file, which
// may hold something that must not reach a terminal, a log or a pull-request comment.
const SECRET = 'sk0f1e2d3c4b5a6978';
/** Its first four characters: V8 quotes ten characters either side of a JSON error. */
const FRAGMENT = SECRET.slice(0, 4);

const thrown = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return String(err) + JSON.stringify(err);
  }
  throw new Error('did not throw');
};
const rejected = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => {
      throw new Error('did not reject');
    },
    (err: unknown) => String(err) + JSON.stringify(err),
  );

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-parse-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('parse errors quote nothing of the text', () => {
  it.each([
    [
      'a JSON update graph',
      () => thrown(() => graphFromCincinnati(`{"nodes": [], "token": ${SECRET}}`, 'g.json')),
    ],
    [
      'a JSON graph that is one line',
      () => thrown(() => graphFromCincinnati(`root:${SECRET}:0:0`, 'g.json')),
    ],
    ['a graph-data channel file', () => thrown(() => parseChannelFile(`name: x\n${SECRET}: [a\n`, 'c.yaml'))],
    ['a manifest (js-yaml)', () => thrown(() => parseObjects(`kind: A\n${SECRET}: [x\n`, 'm.yaml'))],
    ['a manifest with an unknown tag', () => thrown(() => parseObjects(`a: !<tag:${SECRET}> x\n`, 'm.yaml'))],
    [
      'a JSON catalog blob',
      () =>
        thrown(() =>
          parseCatalog([{ path: 'c.json', text: `{"schema": "olm.package", "name": ${SECRET}}` }]),
        ),
    ],
    [
      'a YAML catalog alias',
      () => thrown(() => parseCatalog([{ path: 'c.yaml', text: `schema: *${SECRET}\n` }])),
    ],
  ])('%s', (_what, run) => {
    expect(run()).not.toContain(FRAGMENT);
  });

  it('groundwork.yaml and overlays, by file, line and column', async () => {
    const config = await rejected(loadProjectConfig(repo({ 'groundwork.yaml': `name: x\nb: *${SECRET}\n` })));
    expect(config).not.toContain(SECRET);
    expect(config).toContain('Unresolved alias (the anchor must be set before the alias)');
    const dir = repo({ 'overlays/dev.yaml': `a: 1\n${SECRET}: [b\n` });
    const overlay = await rejected(loadOverlayValues(join(dir, 'overlays'), 'dev', z.object({}), dir));
    expect(overlay).not.toContain(SECRET);
    expect(overlay).toMatch(/overlays\/dev\.yaml:\d+:\d+/);
  });

  it('locates JSON errors, also where V8 gives no position', () => {
    const text = `{\n  "a": 1,\n  "b": ${SECRET}\n}`;
    let err: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      err = e;
    }
    expect(jsonFailure(err, text)).toEqual({ line: 3, column: 8, reason: 'Unexpected token' });
    try {
      JSON.parse('{"a": 1,}');
    } catch (e) {
      err = e;
    }
    expect(jsonFailure(err, '{"a": 1,}')).toEqual({
      line: 1,
      column: 9,
      reason: 'Expected double-quoted property name',
    });
  });

  it('keeps the reason of yaml and js-yaml errors, with a 1-based position', () => {
    expect(yamlFailure({ reason: `unidentified alias "${SECRET}"`, mark: { line: 0, column: 3 } })).toEqual({
      line: 1,
      column: 4,
      reason: 'unidentified alias',
    });
    expect(
      yamlFailure({
        message: `Unresolved tag: !${SECRET} at line 2, column 4:\n\nb: !${SECRET} x\n`,
        linePos: [{ line: 2, col: 4 }],
      }),
    ).toEqual({ line: 2, column: 4, reason: 'Unresolved tag' });
  });

  it('redactReason keeps at most 100 characters of the first line', () => {
    expect(redactReason(`${'x'.repeat(300)}\nsecond`)).toHaveLength(100);
    expect(redactReason('')).toBe('syntax error');
  });
});
