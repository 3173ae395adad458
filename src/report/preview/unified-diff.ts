interface UnifiedDiffOptions {
  /** Label of the old text on the `---` line; `/dev/null` for an addition. */
  fromName: string;
  /** Label of the new text on the `+++` line; `/dev/null` for a removal. */
  toName: string;
  /** Unchanged lines around each change. @default 3 */
  context?: number;
  /**
   * Above this many differing lines (after trimming the common start and end) the diff is not
   * searched for a shortest edit: the differing middle is shown as removed, then added. @default 2000
   */
  maxEditDistance?: number;
}

type Op = ' ' | '-' | '+';

/**
 * A unified diff (`diff -u` format: `---`/`+++` headers, `@@ -a,b +c,d @@` hunks) of two texts,
 * line by line, with a shortest edit script (Myers). Returns `''` when the texts are equal. A
 * missing final newline is not marked: both sides are whole-line texts here (canonical YAML).
 *
 * @example
 * unifiedDiff('a\nb\n', 'a\nc\n', { fromName: 'base/x', toName: 'head/x' })
 * // '--- base/x\n+++ head/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 */
export function unifiedDiff(before: string, after: string, opts: UnifiedDiffOptions): string {
  if (before === after) return '';
  const a = lines(before);
  const b = lines(after);
  const edits = editScript(a, b, opts.maxEditDistance ?? 2000);
  const hunks = toHunks(edits, opts.context ?? 3);
  return `--- ${opts.fromName}\n+++ ${opts.toName}\n${hunks.join('')}`;
}

function lines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

interface Edit {
  op: Op;
  line: string;
}

function editScript(a: readonly string[], b: readonly string[], maxD: number): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((line): Edit => ({ op: ' ', line }));
  const tail = a.slice(endA).map((line): Edit => ({ op: ' ', line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle =
    midA.length + midB.length > 0
      ? (myers(midA, midB, maxD) ?? [
          ...midA.map((line): Edit => ({ op: '-', line })),
          ...midB.map((line): Edit => ({ op: '+', line })),
        ])
      : [];
  return [...head, ...middle, ...tail];
}

/** Myers' O(ND) shortest edit script; undefined when D exceeds `maxD`. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[k] for k in [-d-1, d+1] as it was before step d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[]): Edit[] {
  const out: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const row = trace[d]!;
    const at = (k: number): number => row[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', line: a[x - 1]! });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) out.push({ op: '+', line: b[y - 1]! });
      else out.push({ op: '-', line: a[x - 1]! });
    }
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}

/** Groups edits into hunks with `context` unchanged lines around changes; close changes share a hunk. */
function toHunks(edits: readonly Edit[], context: number): string[] {
  const changed = edits.map((e, i) => (e.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  const hunks: string[] = [];
  let i = 0;
  while (i < changed.length) {
    let last = changed[i]!;
    let j = i + 1;
    while (j < changed.length && changed[j]! - last <= 2 * context + 1) last = changed[j++]!;
    const from = Math.max(0, changed[i]! - context);
    const to = Math.min(edits.length, last + context + 1);
    hunks.push(hunk(edits, from, to));
    i = j;
  }
  return hunks;
}

function hunk(edits: readonly Edit[], from: number, to: number): string {
  let oldStart = 1;
  let newStart = 1;
  for (let i = 0; i < from; i++) {
    if (edits[i]!.op !== '+') oldStart++;
    if (edits[i]!.op !== '-') newStart++;
  }
  const body = edits.slice(from, to);
  const oldCount = body.filter((e) => e.op !== '+').length;
  const newCount = body.filter((e) => e.op !== '-').length;
  // diff -u convention: an empty range starts at the line before it.
  const range = (start: number, count: number): string => `${count === 0 ? start - 1 : start},${count}`;
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${body.map((e) => `${e.op}${e.line}\n`).join('')}`;
}
