import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { editChartLock } from '../../src/propose/chart-lock-edit.js';
import { KEYS, locatePin } from '../../src/propose/locate-pin.js';
import type { PlatformFiles } from '../../src/propose/platform-files.js';
import { applySplices } from '../../src/propose/splice.js';
import { stringLiterals } from '../../src/propose/ts-literals.js';
import { scalarText } from '../../src/propose/yaml-scalars.js';

const golden = (name: string) => readFileSync(new URL(`golden/${name}`, import.meta.url), 'utf8');

/** The one file `locatePin` edits, with its splices applied. */
function edited(files: PlatformFiles, value: string, next: string, keys: (k: string | undefined) => boolean) {
  const found = locatePin(files, value, next, keys);
  const texts = new Map([...files.overlays, ...files.sources]);
  return new Map([...found].map(([path, splices]) => [path, applySplices(texts.get(path)!, splices)]));
}

describe('edits in place (golden files: only the pinned span changes)', () => {
  const main = golden('main.ts.in');
  const sources: PlatformFiles = { overlays: new Map(), sources: new Map([['platform/main.ts', main]]) };

  it('a TypeScript pin: the literal of the pin, not the comment that quotes it', () => {
    const out = edited(sources, 'kepler-operator.v0.24.0', 'kepler-operator.v0.24.1', KEYS.any);
    expect([...out.keys()]).toEqual(['platform/main.ts']);
    expect(out.get('platform/main.ts')).toBe(golden('main.ts.operator.after'));
  });

  it('a TypeScript chart version: only the literal under a version key, in its own quotes', () => {
    const out = edited(sources, '6.5.0', '6.5.1', KEYS.version);
    expect(out.get('platform/main.ts')).toBe(golden('main.ts.chart.after'));
  });

  it('an overlay: version and channel keep their quoting and comments; an equal list item is left alone', () => {
    const files: PlatformFiles = {
      overlays: new Map([['overlays/dev.yaml', golden('dev.yaml.in')]]),
      sources: new Map(),
    };
    const version = locatePin(files, '4.16.20', '4.17.3', KEYS.version);
    const channel = locatePin(files, 'stable-4.16', 'stable-4.17', KEYS.channel);
    const splices = [...version.get('overlays/dev.yaml')!, ...channel.get('overlays/dev.yaml')!];
    expect(applySplices(golden('dev.yaml.in'), splices)).toBe(golden('dev.yaml.after'));
  });

  it('the chart lock: the entry of the repository and version asked for, digests included, nothing else', () => {
    const after = editChartLock(
      golden('groundwork-charts.lock.yaml.in'),
      { repo: 'oci://ghcr.io/org/charts', name: 'podinfo', from: '6.5.0' },
      {
        repo: 'oci://ghcr.io/org/charts',
        name: 'podinfo',
        version: '6.5.1',
        url: `oci://ghcr.io/org/charts/podinfo@sha256:${'4'.repeat(64)}`,
        digest: `sha256:${'5'.repeat(64)}`,
        manifestDigest: `sha256:${'4'.repeat(64)}`,
      },
    );
    expect(after).toBe(golden('groundwork-charts.lock.yaml.after'));
  });

  it('the chart lock: no entry for the pin, or a field the lock lacks, is no edit', () => {
    const lock = golden('groundwork-charts.lock.yaml.in');
    const entry = {
      repo: 'https://x.example',
      name: 'podinfo',
      version: '6.5.1',
      url: 'https://x.example/p.tgz',
      digest: `sha256:${'6'.repeat(64)}`,
    };
    expect(
      editChartLock(lock, { repo: 'https://x.example', name: 'podinfo', from: '6.5.0' }, entry),
    ).toBeUndefined();
    const http = {
      ...entry,
      repo: 'https://stefanprodan.github.io/podinfo',
      manifestDigest: `sha256:${'7'.repeat(64)}`,
    };
    expect(editChartLock(lock, { repo: http.repo, name: 'podinfo', from: '6.5.0' }, http)).toBeUndefined();
  });
});

describe('the string-literal scanner', () => {
  it('skips comments and template substitutions, and lists only plain literals with their key', () => {
    const src = [
      "const a = { pin: 'x.v1' }; // 'in a comment'",
      '/* "in a block" */ const b = { "version": "1.2.3" };',
      "const c = `t ${ { version: '9.9.9' }.version } end`;",
      "const d = 'esc\\'aped';",
      'const e = `plain`;',
    ].join('\n');
    expect(stringLiterals(src).map((l) => [l.value, l.key])).toEqual([
      ['x.v1', 'pin'],
      ['version', undefined],
      ['1.2.3', 'version'],
      ['9.9.9', 'version'],
      ['plain', undefined],
    ]);
  });
});

describe('YAML scalar text', () => {
  it.each([
    ['4.16.21', 'PLAIN', '4.16.21'],
    ['1.10', 'PLAIN', '"1.10"'],
    ['true', 'PLAIN', '"true"'],
    ["it's", 'QUOTE_SINGLE', "'it''s'"],
    ['x: y', 'PLAIN', '"x: y"'],
    ['sha256:ab12', 'PLAIN', 'sha256:ab12'],
    ['a\nb', 'QUOTE_DOUBLE', '"a\\nb"'],
  ] as const)('%j in a %s scalar is written %s', (value, style, text) => {
    expect(scalarText(value, style)).toBe(text);
  });
});
