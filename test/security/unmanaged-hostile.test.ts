// The `unmanaged:` block of groundwork.yaml is written by whoever can push, and the unmanaged
// objects' names and the reasons a list failed come from the cluster. The block is bounded and
// strict (its namespaces reach LIST URLs; its patterns are matched against every listed name), the
// patterns are matched without regular expressions, and cluster text reaches Markdown only through
// the escaping builders.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { idOfRef, type ObjectRef } from '../../src/core/object-id.js';
import { matchesPattern } from '../../src/plan/name-pattern.js';
import type { UnmanagedReport } from '../../src/plan/unmanaged.js';
import { UNMANAGED_LIMITS, unmanagedSchema } from '../../src/project/unmanaged-config.js';
import { DriftReport } from '../../src/report/drift-report.js';

const md = new MarkdownIt({ html: true });

describe('a hostile unmanaged: block', () => {
  it.each([
    ['a namespace that is a path', { namespaces: ['../../apis'] }],
    ['a namespace with a query', { namespaces: ['shop?watch=1'] }],
    ['a kind with a version and a path', { kinds: ['apps/v1/../Deployment'] }],
    ['a pattern with a line break', { ignore: [{ name: 'a\nb' }] }],
    ['a pattern with a slash', { ignore: [{ name: 'a/b' }] }],
    ['a pattern over 253 characters', { ignore: [{ name: 'a'.repeat(254) }] }],
    ['a rule that ignores everything', { ignore: [{}] }],
    ['an unknown field in a rule', { ignore: [{ name: 'x', label: 'y' }] }],
    [
      'too many namespaces',
      { namespaces: Array.from({ length: UNMANAGED_LIMITS.namespaces + 1 }, (_, i) => `n${i}`) },
    ],
    [
      'too many rules',
      { ignore: Array.from({ length: UNMANAGED_LIMITS.ignore + 1 }, () => ({ name: 'x' })) },
    ],
  ])('is refused: %s', (_, block) => {
    expect(unmanagedSchema.safeParse(block).success).toBe(false);
  });

  it('matches a pattern of stars that a backtracking glob or regex takes exponential time on', () => {
    // `a*a*...a*b` against `aaa...a`: a backtracking matcher tries every split; matchesPattern
    // scans once per piece (a hang here would fail on the test timeout).
    const pattern = `${'a*'.repeat(120)}b`;
    expect(unmanagedSchema.safeParse({ ignore: [{ name: pattern }] }).success).toBe(true);
    for (let i = 0; i < 200; i++) expect(matchesPattern(pattern, 'a'.repeat(250))).toBe(false);
    expect(matchesPattern(pattern, `${'a'.repeat(250)}b`)).toBe(true);
  });
});

describe('cluster names in the unmanaged section', () => {
  const hostile: ObjectRef = {
    group: '',
    kind: 'ConfigMap',
    namespace: 'shop',
    name: 'x|y`<img src=x onerror=alert(1)>',
  };
  const report: UnmanagedReport = {
    failOn: false,
    objects: [{ id: idOfRef(hostile), ref: hostile }],
    total: 1,
    counts: [{ namespace: 'shop', kind: 'ConfigMap', count: 1 }],
    unread: [{ kind: 'Secret', namespace: 'shop', reason: 'denied\n\n<!-- hide the rest' }],
  };

  it('stay in their cell and never become HTML', () => {
    const text = new DriftReport('p', 'dev', []).withUnmanaged(report).toMarkdown();
    const html = md.render(text);
    expect(html).not.toMatch(/<img/);
    expect(html).not.toContain('<!--');
    const row = text.split('\n').find((l) => l.includes('onerror'))!;
    // Three cells: the pipe in the name is escaped.
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(5);
    expect(text.split('\n').filter((l) => l.startsWith('- not read'))).toHaveLength(1);
  });

  it('stay on one line in the table', () => {
    const lines = new DriftReport('p', 'dev', []).withUnmanaged(report).toTable().split('\n');
    expect(lines.filter((l) => l.includes('hide the rest'))).toEqual([
      'not read: Secret in shop: denied <!-- hide the rest',
    ]);
  });
});
