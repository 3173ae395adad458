import { describe, expect, it } from 'vitest';
import { decideOrphan, decideProposal, type BranchState } from '../../src/propose/publish-decision.js';
import { digestOfBody, proposalDigest } from '../../src/propose/publish-body.js';
import type { Proposal } from '../../src/propose/proposal.js';

const PATH = 'platform/main.ts';
const V1 = "version: '1.0.0'\n";
const V2 = "version: '1.0.1'\n";
const V3 = "version: '1.0.2'\n";
const edits = [{ path: PATH, before: V1, after: V2 }];
const files = (content: string | undefined) => new Map([[PATH, content]]);
const branch = (over: Partial<BranchState> = {}): BranchState => ({
  byUs: true,
  changed: [PATH],
  headFiles: files(V2),
  parentFiles: files(V1),
  ...over,
});

describe('decideProposal', () => {
  const cases: [string, Parameters<typeof decideProposal>[0], string][] = [
    [
      'no branch, no pull request: push and open',
      { edits, baseFiles: files(V1), branch: undefined, pr: undefined, digest: 'd' },
      'push/open',
    ],
    [
      'the base has the change: in-base',
      { edits, baseFiles: files(V2), branch: branch(), pr: { digest: 'd' }, digest: 'd' },
      'in-base',
    ],
    [
      'the base moved elsewhere since the engine read it: stale',
      { edits, baseFiles: files(V3), branch: undefined, pr: undefined, digest: 'd' },
      'stale',
    ],
    [
      'same content, same digest: unchanged (nothing pushed)',
      { edits, baseFiles: files(V1), branch: branch(), pr: { digest: 'd' }, digest: 'd' },
      'unchanged',
    ],
    [
      'same content, other digest: describe only',
      { edits, baseFiles: files(V1), branch: branch(), pr: { digest: 'old' }, digest: 'd' },
      'describe',
    ],
    [
      'same content, no pull request: a person closed it',
      { edits, baseFiles: files(V1), branch: branch(), pr: undefined, digest: 'd' },
      'declined',
    ],
    [
      'a newer version for an open one: push and update',
      {
        edits,
        baseFiles: files(V1),
        branch: branch({ headFiles: files(V3) }),
        pr: { digest: 'x' },
        digest: 'd',
      },
      'push/update',
    ],
    [
      'the branch changes another file too: push',
      {
        edits,
        baseFiles: files(V1),
        branch: branch({ changed: [PATH, 'x'] }),
        pr: { digest: 'd' },
        digest: 'd',
      },
      'push/update',
    ],
    [
      "a person's commit on the branch: edited, even when the base has it",
      { edits, baseFiles: files(V2), branch: branch({ byUs: false }), pr: { digest: 'd' }, digest: 'd' },
      'edited',
    ],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    const action = decideProposal(input);
    expect(action.type === 'push' ? `push/${action.pr}` : action.type).toBe(expected);
  });
});

describe('decideOrphan', () => {
  it('closes when the base has the branch content or its files moved, keeps it otherwise', () => {
    expect(decideOrphan(branch(), files(V2))).toEqual({ type: 'close', why: 'in-base', paths: [PATH] });
    expect(decideOrphan(branch(), files(V3))).toEqual({ type: 'close', why: 'moved', paths: [PATH] });
    expect(decideOrphan(branch(), files(undefined))).toEqual({ type: 'close', why: 'moved', paths: [PATH] });
    expect(decideOrphan(branch(), files(V1))).toEqual({ type: 'keep', why: 'not-proposed' });
    expect(decideOrphan(branch({ byUs: false }), files(V2))).toEqual({ type: 'keep', why: 'edited' });
  });
});

describe('proposalDigest', () => {
  it('changes with a note and a version, and is read back from the first line of a body', () => {
    const p: Proposal = {
      group: 'g',
      kind: 'chart',
      title: 't',
      from: '1',
      to: '2',
      edits,
      notes: [],
      environment: 'dev',
    };
    const d = proposalDigest(p);
    expect(proposalDigest({ ...p, notes: ['a new risk'] })).not.toBe(d);
    expect(proposalDigest({ ...p, to: '3' })).not.toBe(d);
    expect(digestOfBody(`<!-- groundwork-propose group=g digest=${d} -->\nrest`)).toBe(d);
    expect(digestOfBody(`text\n<!-- groundwork-propose group=g digest=${d} -->`)).toBeUndefined();
  });
});
