import { describe, expect, it } from 'vitest';
import { COMMIT_TEXT_LIMIT } from '../../src/report/sync-status-schema.js';
import { nextStatus, SyncStatus, type SyncEvent } from '../../src/report/sync-status.js';
import { overviewPage } from '../../src/ui/pages/overview.js';
import { hostileSnapshot } from '../ui/fixtures.js';

const REV1 = 'main@sha1:1111111111111111111111111111111111111111';
const REV2 = 'main@sha1:2222222222222222222222222222222222222222';
const at = new Date(Date.UTC(2026, 10, 27, 4, 0, 0));
const HTML_MESSAGE =
  '<img src=x onerror=alert(1)>fix: "quotes" & <b>tags</b>\n\nsecond line SECOND-LINE-MARK';

function reconciled(extra: Partial<Extract<SyncEvent, { type: 'reconciled' }>>): SyncEvent {
  return {
    type: 'reconciled',
    at,
    generation: 1,
    revision: REV1,
    applied: true,
    inventory: { objects: 1 },
    health: { status: 'Healthy', reason: 'AllHealthy' },
    ...extra,
  };
}

describe("the applied revision's commit in the status", () => {
  it('keeps the first non-empty line and the author name, flattened and cut, and survives a parse', () => {
    const s = nextStatus(
      undefined,
      reconciled({
        commit: { message: `\n\n  first\tline\u0007  \nsecond line`, author: 'Ada\nLovelace' },
      }),
    );
    expect(s.value.lastAppliedCommit).toEqual({ subject: 'first line', author: 'Ada Lovelace' });
    expect(SyncStatus.parse(JSON.parse(JSON.stringify(s.value))).value.lastAppliedCommit).toEqual({
      subject: 'first line',
      author: 'Ada Lovelace',
    });
    const long = nextStatus(undefined, reconciled({ commit: { message: 'x'.repeat(5000), author: 'a' } }));
    expect(long.value.lastAppliedCommit!.subject).toHaveLength(COMMIT_TEXT_LIMIT);
  });

  it('stays with the applied revision: kept by a cycle that applied nothing, cleared by one applied without a commit', () => {
    const first = nextStatus(undefined, reconciled({ commit: { message: 'one', author: 'a' } }));
    const notApplied = nextStatus(first, reconciled({ revision: REV2, applied: false }));
    expect(notApplied.value.lastAppliedCommit).toEqual({ subject: 'one', author: 'a' });
    const unknown = nextStatus(notApplied, reconciled({ revision: REV2, applied: true }));
    expect(unknown.value.lastAppliedRevision).toBe(REV2);
    expect(unknown.value.lastAppliedCommit).toBeUndefined();
  });

  it('the Overview shows a commit message holding HTML as text', () => {
    const status = nextStatus(
      undefined,
      reconciled({ commit: { message: HTML_MESSAGE, author: '<i>eve</i>' } }),
    );
    const s = hostileSnapshot();
    const markup = overviewPage({ ...s, syncs: [{ ...s.syncs[0]!, status: status.value }] }).markup;
    expect(markup).toContain('Commit applied');
    expect(markup).toContain(
      '&lt;img src=x onerror=alert(1)&gt;fix: &quot;quotes&quot; &amp; &lt;b&gt;tags&lt;/b&gt; (by &lt;i&gt;eve&lt;/i&gt;)',
    );
    expect(markup).not.toContain('<img');
    expect(markup).not.toContain('<i>eve');
    // Only the first line: the body stays in git.
    expect(markup).not.toContain('SECOND-LINE-MARK');
  });
});
