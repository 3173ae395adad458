import { ApiObject, App } from 'cdk8s';
import { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { constructInProgress } from '../../src/synth/construct-in-progress.js';
import { Platform } from '../../src/synth/platform.js';

class ThrowsBeforeSuper extends Construct {
  constructor(scope: Construct, id: string, fail: boolean) {
    if (fail) throw new Error('refused before super');
    super(scope, id);
  }
}

class ThrowsAfterChildren extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new ApiObject(this, 'first', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    new Construct(this, 'inner');
    throw new Error('refused after children');
  }
}

/** The error `build` throws, with the tree it left. */
function thrownBy(build: (platform: Platform) => void): { app: App; err: unknown } {
  const app = new App();
  const platform = new Platform(app, 'platform', { openshiftVersion: '4.16' });
  new ApiObject(platform, 'previous', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' } });
  try {
    build(platform);
  } catch (err) {
    return { app, err };
  }
  throw new Error('build did not throw');
}

describe('constructInProgress names the construct whose constructor threw', () => {
  it('a construct that throws before super() is named by its class, not as the previous construct', () => {
    const { app, err } = thrownBy((p) => new ThrowsBeforeSuper(p, 'early', true));
    expect(constructInProgress(app, err)).toBe('a new ThrowsBeforeSuper (not yet in the construct tree)');
  });

  it('a construct that throws after creating children is named by its path, not by its last child', () => {
    const { app, err } = thrownBy((p) => new ThrowsAfterChildren(p, 'late'));
    expect(constructInProgress(app, err)).toBe('platform/late');
  });

  it('an error of plain platform code names no construct', () => {
    const { app, err } = thrownBy(() => {
      throw new Error('plain');
    });
    expect(constructInProgress(app, err)).toBeUndefined();
  });
});
