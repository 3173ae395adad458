import { describe, expect, it } from 'vitest';
import { MAX_MEMBER_LABELS, memberLabelProblem, parseMemberLabels } from '../../src/hub/member-labels.js';

describe('member labels', () => {
  it('reads key=value pairs from one or several texts', () => {
    expect(parseMemberLabels(['region=eu,tier=canary', 'example.com/site=f-7'])).toEqual({
      region: 'eu',
      tier: 'canary',
      'example.com/site': 'f-7',
    });
    expect(parseMemberLabels([])).toEqual({});
  });

  it("refuses the hub's own prefix, bad syntax and too many labels, naming the flag", () => {
    expect(memberLabelProblem('hub.groundwork.io/reachability', 'Reachable')).toContain('kept for the hub');
    expect(memberLabelProblem('x.hub.groundwork.io/a', 'b')).toContain('kept for the hub');
    expect(memberLabelProblem('region', 'eu west')).toContain('not a label value');
    expect(memberLabelProblem('-bad', 'x')).toContain('not a label name');
    expect(memberLabelProblem('Bad_Prefix/x', 'y')).toContain('prefix');
    expect(() => parseMemberLabels(['region'])).toThrow(
      expect.objectContaining({ code: 'InvalidFlag', subject: '--labels' }),
    );
    const many = Array.from({ length: MAX_MEMBER_LABELS + 1 }, (_, i) => `k${i}=v`).join(',');
    expect(() => parseMemberLabels([many])).toThrow(expect.objectContaining({ code: 'InvalidFlag' }));
  });
});
