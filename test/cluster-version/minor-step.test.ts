import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { skippedMinors } from '../../src/cluster-version/minor-step.js';
import { ClusterVersionTarget, type ClusterVersionTargetProps } from '../../src/cluster-version/target.js';
import { Platform } from '../../src/render/synth/platform.js';
import { Validation } from '../../src/render/synth/validation.js';

function issues(openshiftVersion: string, props: ClusterVersionTargetProps) {
  const app = new App();
  new ClusterVersionTarget(new Platform(app, 'p', { openshiftVersion }), 'v', props);
  return Validation.all(app).map((i) => ({ path: i.path, field: i.field, message: i.message, fix: i.fix }));
}

describe('skippedMinors (one rule for synth and preview)', () => {
  it.each([
    [14, 14, {}, []],
    [14, 15, {}, []],
    [14, 16, {}, ['4.15']],
    [13, 16, {}, ['4.14', '4.15']],
    [14, 16, { channel: 'eus-4.16', controlPlaneOnly: true }, []],
    [14, 16, { channel: 'eus-4.16' }, ['4.15']],
    [14, 16, { channel: 'stable-4.16', controlPlaneOnly: true }, ['4.15']],
    [15, 17, { channel: 'eus-4.16', controlPlaneOnly: true }, ['4.16']],
    [16, 14, {}, []],
  ] as const)('4.%i → 4.%i %j skips %j', (from, to, opts, expected) => {
    expect(skippedMinors({ major: 4, minor: from }, { major: 4, minor: to }, opts)).toEqual(expected);
  });
});

describe('ClusterVersionTarget at synth', () => {
  it('refuses a target that skips a minor relative to openshiftVersion, with the construct path and a fix', () => {
    const found = issues('4.14', { channel: 'stable-4.16', version: '4.16.3' });
    expect(found).toEqual([
      {
        path: 'p/v',
        field: 'version',
        message:
          "4.16.3 skips 4.15 from the platform's openshiftVersion 4.14: OpenShift updates one minor at a time",
        fix: expect.stringContaining('target 4.15 first (channel stable-4.15)') as unknown as string,
      },
    ]);
  });

  it('accepts the next minor and an EUS-to-EUS update', () => {
    expect(issues('4.14', { channel: 'stable-4.15', version: '4.15.2' })).toEqual([]);
    expect(issues('4.14', { channel: 'eus-4.16', version: '4.16.3', controlPlaneOnly: true })).toEqual([]);
  });

  it('names the channel that offers a target its channel does not', () => {
    const [issue] = issues('4.16', { channel: 'stable-4.15', version: '4.16.3' });
    expect(issue?.message).toBe('4.16.3 is not offered by channel stable-4.15');
    expect(issue?.fix).toBe('use channel stable-4.16, which offers 4.16');
    const [eus] = issues('4.16', { channel: 'eus-4.14', version: '4.15.3' });
    expect(eus?.fix).toBe('use channel stable-4.15, which offers 4.15');
  });
});
