import { describe, expect, it } from 'vitest';
import { statusMessage, synthFailedNote } from '../../src/agent/synth-failed-note.js';

// Issue 32, item 7: while the newest commit fails synth, the status says plainly what the agent
// still does for the cluster (src/agent/runner.ts writes it first in the Ready and Stalled messages).
const base = { revision: 'main@sha1:bbbb', lastGood: 'main@sha1:aaaa', suspended: false } as const;

describe('synthFailedNote', () => {
  it('detect-only: the cluster stays at the last good revision, drift is reported, not healed', () => {
    expect(synthFailedNote({ ...base, mode: 'detect-only' })).toBe(
      'newest commit main@sha1:bbbb failed to render: the cluster stays at main@sha1:aaaa and drift from it is reported, not healed (detect-only); nothing newer is applied or pruned until a commit renders',
    );
  });

  it('suspended self-heal: reported, not healed (suspended)', () => {
    expect(synthFailedNote({ ...base, mode: 'self-heal', suspended: true })).toContain(
      'drift from it is reported, not healed (suspended)',
    );
  });

  it('self-heal: drift from the last good revision is still healed; nothing newer is applied or pruned', () => {
    const note = synthFailedNote({ ...base, mode: 'self-heal' });
    expect(note).toContain('the cluster stays at main@sha1:aaaa and drift from it is still healed');
    expect(note).toContain('nothing newer is applied or pruned until a commit renders');
    expect(note).not.toContain('not healed');
  });

  it('nothing applied yet: says so', () => {
    expect(synthFailedNote({ ...base, lastGood: undefined, mode: 'self-heal' })).toBe(
      'newest commit main@sha1:bbbb failed to render; nothing is applied until a commit renders',
    );
  });
});

describe('statusMessage', () => {
  it('puts the note first for SynthFailed only, and keeps the cause', () => {
    const input = { ...base, mode: 'detect-only' } as const;
    const synth = statusMessage({ reason: 'SynthFailed', message: 'platform/main.ts:3: boom' }, input);
    expect(synth).toMatch(/^newest commit main@sha1:bbbb failed to render: .*\. platform\/main\.ts:3: boom$/);
    expect(statusMessage({ reason: 'FetchFailed', message: 'timeout' }, input)).toBe('timeout');
    expect(statusMessage({ reason: 'SynthFailed', message: 'x' }, { ...input, revision: undefined })).toBe(
      'x',
    );
  });
});
