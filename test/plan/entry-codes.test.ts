import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENTRY_CODES, failureCodeOf } from '../../src/plan/entry-codes.js';

const DOC = fileURLToPath(new URL('../../docs/agent-status.md', import.meta.url));

/** The codes of the "Per-object codes" table of docs/agent-status.md, each with its meaning. */
function documented(): { code: string; meaning: string }[] {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Per-object codes'));
  const body = section.slice(0, section.indexOf('\n## ', 1) >>> 0);
  return body.split('\n').flatMap((line) => {
    const m = /^\| `([A-Za-z]+)` \|([^|]*)\|(.*)\|\s*$/.exec(line);
    return m ? [{ code: m[1]!, meaning: m[3]!.trim() }] : [];
  });
}

describe('per-object codes: one closed list (EntryCode), documented in docs/agent-status.md', () => {
  it('documents exactly the codes of ENTRY_CODES, once each, with a meaning', () => {
    const rows = documented();
    const codes = rows.map((r) => r.code);
    expect(new Set(codes).size, 'a code documented twice').toBe(codes.length);
    expect([...codes].sort()).toEqual([...ENTRY_CODES].sort());
    expect(rows.filter((r) => !r.meaning).map((r) => r.code)).toEqual([]);
  });

  it("names a server's failure by its reason only when Kubernetes lists it", () => {
    expect(failureCodeOf('Conflict')).toBe('Conflict');
    expect(failureCodeOf('Invalid')).toBe('Invalid');
    for (const other of ['', 'conflict', 'MyAggregatedApiSaysNo', '__proto__', 'Conflict\n'])
      expect(failureCodeOf(other), other).toBe('ApiRequestFailed');
  });
});
