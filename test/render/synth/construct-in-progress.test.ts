import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { constructInProgress, withDeepStacks } from '../../../src/render/synth/construct-in-progress.js';
import { Platform } from '../../../src/render/synth/platform.js';

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

/** A construct whose constructor creates a finished child, then one that throws before super(). */
class CreatesEarly extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new ApiObject(this, 'done', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } });
    new ThrowsBeforeSuper(this, 'inner', true);
  }
}

/** A construct that extends another whose constructor throws after its own super(). */
class BaseThrows extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    throw new Error('refused in the base class');
  }
}
class ExtendsBaseThrows extends BaseThrows {}

/** A construct whose constructor starts a worker thread with bad options (Node's `new Worker` throws). */
class StartsWorker extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new Worker(42 as unknown as string);
  }
}

/** A cdk8s Chart that throws in its constructor after creating an object. */
class ThrowingChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new ApiObject(this, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    throw new Error('refused in a chart');
  }
}

/** A construct whose constructor throws 30 calls deep (past V8's default 10 frames). */
class ThrowsDeep extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const down = (n: number): number => {
      if (n === 0) throw new Error('refused deep down');
      return down(n - 1) + 1;
    };
    down(30);
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

  it('a nested construct that throws before super() is named inside the construct creating it, not as its finished sibling', () => {
    const { app, err } = thrownBy((p) => new CreatesEarly(p, 'outer'));
    expect(constructInProgress(app, err)).toBe(
      'platform/outer (in a new ThrowsBeforeSuper, not yet in the construct tree)',
    );
  });

  it("a throw in a base class's constructor names the construct, not its base class as a child", () => {
    const { app, err } = thrownBy((p) => new ExtendsBaseThrows(p, 'derived'));
    expect(constructInProgress(app, err)).toBe('platform/derived');
  });

  it("a throw in a chart's constructor names the chart, not the object it created", () => {
    const { app, err } = thrownBy((p) => new ThrowingChart(p, 'chart'));
    expect(constructInProgress(app, err)).toBe('platform/chart');
  });

  it('a throw deep under a constructor is named when built under withDeepStacks, and the limit is restored', () => {
    const before = Error.stackTraceLimit;
    const { app, err } = thrownBy((p) => withDeepStacks(() => new ThrowsDeep(p, 'deep')));
    expect(constructInProgress(app, err)).toBe('platform/deep');
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("a Node constructor that throws inside a construct's (new Worker) is not named as a construct", () => {
    const { app, err } = thrownBy((p) => new StartsWorker(p, 'probe'));
    expect(String((err as Error).stack)).toMatch(/at new Worker \(node:/);
    expect(constructInProgress(app, err)).toBe('platform/probe');
  });

  it('an error of plain platform code names no construct', () => {
    const { app, err } = thrownBy(() => {
      throw new Error('plain');
    });
    expect(constructInProgress(app, err)).toBeUndefined();
  });
});
