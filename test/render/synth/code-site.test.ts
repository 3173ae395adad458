import { describe, expect, it } from 'vitest';
import { codeSite } from '../../../src/render/synth/code-site.js';

const stack = (...frames: string[]) => ['Error: boom', ...frames.map((f) => `    at ${f}`)].join('\n');

describe('codeSite', () => {
  it('finds the first frame of the platform code, relative to the checkout', () => {
    expect(
      codeSite(
        stack(
          'new PlatformOperator (/opt/gw/src/olm/constructs/platform-operator.ts:40:11)',
          'Object.build (/repo/platform/main.ts:7:11)',
          'synthesizeDefinition (/opt/gw/src/synth/synthesize.ts:95:16)',
        ),
        '/repo',
      ),
    ).toBe('platform/main.ts:7');
  });

  it('skips node_modules of the checkout, takes file URLs and anonymous frames', () => {
    expect(
      codeSite(
        stack('x (/repo/node_modules/cdk8s/lib/chart.js:3:1)', 'file:///repo/platform/lib/db.ts:21:5'),
        '/repo',
      ),
    ).toBe('platform/lib/db.ts:21');
  });

  it('is undefined when no frame is in the checkout', () => {
    expect(codeSite(stack('f (/elsewhere/main.ts:1:1)', 'node:internal/x:2:3'), '/repo')).toBeUndefined();
    expect(codeSite(undefined, '/repo')).toBeUndefined();
  });
});
