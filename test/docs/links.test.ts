import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, githubSlug, linksOf } from './markdown-links.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The pages a reader follows links through: the README, CONTRIBUTING and every page of docs/. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .sort(),
];

describe('every relative link and anchor of README.md, CONTRIBUTING.md and docs/', () => {
  it('resolves (file:line: target: why for each that does not)', () => {
    const links = PAGES.flatMap((p) => linksOf(readFileSync(join(root, p), 'utf8')));
    expect(links.filter((l) => !/^[a-z]+:/.test(l.target)).length).toBeGreaterThan(50);
    expect(brokenLinks(root, PAGES)).toEqual([]);
  });
});

describe("GitHub's anchors", () => {
  it.each([
    ['Fleet, environments and promotion', 'fleet-environments-and-promotion'],
    ['Go tools (helm, kustomize, sops, Gitea)', 'go-tools-helm-kustomize-sops-gitea'],
    ['A -- B', 'a----b'],
    ['Überblick & Co.', 'überblick--co'],
    ['snake_case stays', 'snake_case-stays'],
    ['🚀 Launch', '-launch'],
  ])('%s → #%s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it('take the text of code and links, number repeats, and count HTML ids', () => {
    const page = '# `groundwork sync` status\n\n## [Plan](x.md)\n\n## Plan\n\n<a name="legacy"></a>\n';
    expect([...anchorsOf(page)]).toEqual(['groundwork-sync-status', 'plan', 'plan-1', 'legacy']);
  });
});

describe('the link checker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-links-'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'src.ts'), 'a\nb\nc\n');
  writeFileSync(join(dir, 'docs', 'b.md'), '# Bee\n\n## Two words\n');
  writeFileSync(
    join(dir, 'docs', 'a.md'),
    [
      '# A', // 1
      '', // 2
      'See [b](b.md#two-words), [self](#a), [root](/src.ts#L3) and [web](https://example.com/x).', // 3
      'Then [gone](missing.md) and', // 4
      'a wrapped [bad anchor](b.md#three-words).', // 5
      '', // 6
      '| col | link |', // 7
      '|---|---|', // 8
      '| x | [cell](#nowhere) |', // 9
      '', // 10
      '```', // 11
      '[in code](nothing.md)', // 12
      '```', // 13
      '<a href="../../outside.md">out</a> [lines](../src.ts#L9) [up](../docs/)', // 14
    ].join('\n'),
  );

  it('names each broken link by file and line, and passes good ones', () => {
    expect(brokenLinks(dir, ['docs/a.md'])).toEqual([
      'docs/a.md:4: missing.md: no file docs/missing.md',
      'docs/a.md:5: b.md#three-words: no heading #three-words in docs/b.md',
      'docs/a.md:9: #nowhere: no heading #nowhere in docs/a.md',
      'docs/a.md:14: ../../outside.md: leads out of the repository',
      'docs/a.md:14: ../src.ts#L9: src.ts has 3 lines',
    ]);
  });
});
