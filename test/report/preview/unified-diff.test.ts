import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/report/preview/unified-diff.js';

const names = { fromName: 'base/x', toName: 'head/x' };

/** Applies a unified diff to `before` (hunks in order, context checked). */
function apply(before: string, diff: string): string {
  if (diff === '') return before;
  const src = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let at = 0;
  const lines = diff.replace(/\n$/, '').split('\n').slice(2);
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i]!);
    if (!m) throw new Error(`not a hunk header: ${lines[i]}`);
    const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
    while (at < start) out.push(src[at++]!);
    while (i + 1 < lines.length && !lines[i + 1]!.startsWith('@@')) {
      const line = lines[++i]!;
      const op = line[0];
      const text = line.slice(1);
      if (op === ' ' || op === '-') {
        if (src[at] !== text)
          throw new Error(`context mismatch at ${at}: ${JSON.stringify(src[at])} != ${JSON.stringify(text)}`);
        at++;
      }
      if (op === ' ' || op === '+') out.push(text);
    }
  }
  while (at < src.length) out.push(src[at++]!);
  return out.length ? `${out.join('\n')}\n` : '';
}

describe('unifiedDiff', () => {
  const cases: { name: string; before: string; after: string; want: string }[] = [
    { name: 'equal texts: empty', before: 'a\nb\n', after: 'a\nb\n', want: '' },
    {
      name: 'one line changed',
      before: 'a\nb\nc\n',
      after: 'a\nB\nc\n',
      want: '--- base/x\n+++ head/x\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    },
    {
      name: 'addition from nothing',
      before: '',
      after: 'a\nb\n',
      want: '--- base/x\n+++ head/x\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    },
    {
      name: 'removal to nothing',
      before: 'a\n',
      after: '',
      want: '--- base/x\n+++ head/x\n@@ -1,1 +0,0 @@\n-a\n',
    },
    {
      name: 'far-apart changes make two hunks with 3 lines of context',
      before: 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n',
      after: 'L1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nL12\n',
      want: '--- base/x\n+++ head/x\n@@ -1,4 +1,4 @@\n-l1\n+L1\n l2\n l3\n l4\n@@ -9,4 +9,4 @@\n l9\n l10\n l11\n-l12\n+L12\n',
    },
    {
      name: 'changes 6 lines apart share a hunk',
      before: 'a\n1\n2\n3\n4\n5\n6\nb\n',
      after: 'A\n1\n2\n3\n4\n5\n6\nB\n',
      want: '--- base/x\n+++ head/x\n@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n',
    },
    {
      name: 'insertion in the middle',
      before: 'a\nc\n',
      after: 'a\nb\nc\n',
      want: '--- base/x\n+++ head/x\n@@ -1,2 +1,3 @@\n a\n+b\n c\n',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(unifiedDiff(c.before, c.after, names)).toBe(c.want);
    });
  }

  it('is a shortest edit script: a moved block costs its length, not the whole text', () => {
    const diff = unifiedDiff('a\nb\nc\nd\n', 'b\nc\nd\na\n', { ...names, context: 0 });
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-a', '+a']);
  });

  it('applying the diff to before gives after (property)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', '  x: 1', ''), { maxLength: 30 })
      .map((ls) => (ls.length ? `${ls.join('\n')}\n` : ''));
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 4 }), (before, after, context) => {
        expect(apply(before, unifiedDiff(before, after, { ...names, context }))).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  it('falls back to remove-then-add past maxEditDistance, still a valid diff', () => {
    const before = Array.from({ length: 50 }, (_, i) => `old ${i}`).join('\n') + '\n';
    const after = Array.from({ length: 50 }, (_, i) => `new ${i}`).join('\n') + '\n';
    const diff = unifiedDiff(before, after, { ...names, maxEditDistance: 10 });
    expect(apply(before, diff)).toBe(after);
  });
});
