import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { ClusterVersionTarget, type ClusterVersionTargetProps } from '../../src/cluster-version/target.js';
import { Platform } from '../../src/render/synth/platform.js';
import { Validation } from '../../src/render/synth/validation.js';
import type { K8sObject } from '../../src/core/object.js';

function build(props: ClusterVersionTargetProps) {
  const app = new App();
  const platform = new Platform(app, 'p', { openshiftVersion: '4.16' });
  new ClusterVersionTarget(platform, 'v', props);
  return {
    objects: platform.toJson() as K8sObject[],
    issues: Validation.all(app).map((i) => `${i.field}: ${i.message}`),
  };
}

describe('ClusterVersionTarget', () => {
  it('emits the channel and records the target as intent, never as desiredUpdate', () => {
    const { objects, issues } = build({
      channel: 'stable-4.16',
      version: '4.16.3',
      acceptedRisks: ['B', 'A'],
    });
    expect(issues).toEqual([]);
    expect(objects[0]).toMatchObject({
      kind: 'ClusterVersion',
      metadata: {
        name: 'version',
        annotations: {
          'groundwork.io/target-version': '4.16.3',
          'groundwork.io/accepted-risks': '["A","B"]',
        },
      },
      spec: { channel: 'stable-4.16' },
    });
    expect((objects[0]!.spec as Record<string, unknown>).desiredUpdate).toBeUndefined();
  });

  it.each([
    [{ channel: 'stable', version: '4.16.3' }, 'channel'],
    [{ channel: 'eus-4.15', version: '4.15.3' }, 'channel'],
    [{ channel: 'stable-4.16', version: '4.16' }, 'version'],
    [{ channel: 'stable-4.16', version: '4.18.1' }, 'version: 4.18.1 is not offered by channel stable-4.16'],
    [{ channel: 'stable-4.16', version: '4.16.3', image: 'quay.io/ocp-release:4.16.3' }, 'image'],
    [{ channel: 'stable-4.16', version: '4.16.3', controlPlaneOnly: true }, 'controlPlaneOnly'],
  ] as [ClusterVersionTargetProps, string][])('refuses %j (%s)', (props, expected) => {
    expect(build(props).issues.join('\n')).toContain(expected);
  });

  it('accepts the previous minor in a channel (stable-4.16 offers 4.15 releases) and EUS control-plane-only', () => {
    expect(build({ channel: 'stable-4.16', version: '4.15.30' }).issues).toEqual([]);
    expect(build({ channel: 'eus-4.16', version: '4.16.3', controlPlaneOnly: true }).issues).toEqual([]);
  });
});
