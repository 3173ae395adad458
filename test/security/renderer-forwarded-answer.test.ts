// Issue 36: the renderer forwards a platform child's answer with nothing to render as the child
// sent it (`unrenderedAnswer`), without reading it. Platform code can forge that answer (through
// `Object.prototype.toJSON`, which the child's serializer calls): the trusted side still reads it
// with `decodeFrame`, so a forged object or overlay is refused with SynthCrashed and nothing of it
// is returned.
import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { renderPlatform } from '../../src/render/render-platform.js';
import { platformDir } from '../harness/platform-dir.js';

/** A platform whose answer `forge` (a function body over the serialized value `v`) rewrites. */
const forging = (forge: string) => `import { definePlatform, Platform, z } from 'groundwork-gitops';
import { ApiObject } from 'cdk8s';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'a' } });
    Object.defineProperty(Object.prototype, 'toJSON', {
      configurable: true,
      value: function (this: any) {
        const v = this;
        if (v && v.overlay === 'dev' && Array.isArray(v.manifests)) { ${forge} }
        return v;
      },
    });
  },
});
`;

const render = (source: string) =>
  renderPlatform(platformDir(forging(source)), { overlay: 'dev', domain: 'agent', cache: false }).then(
    () => undefined,
    (e: unknown) => e,
  );

describe('a forged answer the renderer forwards unread is refused by the trusted side', () => {
  it.each([
    [
      'an object named "../x"',
      `return { ...v, manifests: v.manifests.map((m: any) => ({ ...m, id: 'v1/ConfigMap/a/../x', object: { ...m.object, metadata: { name: '../x', namespace: 'a' } } })) };`,
      /its result is malformed/,
    ],
    [
      'an overlay that was not asked for',
      `return { ...v, overlay: '../x' };`,
      /not an overlay that was asked for/,
    ],
    [
      "a manifest whose id is not its object's",
      `return { ...v, manifests: v.manifests.map((m: any) => ({ ...m, id: 'v1/Secret/a/creds' })) };`,
      /not the id of its object/,
    ],
    ['a key the schema does not know', `return { ...v, extra: 1 };`, /its result is malformed/],
  ])('%s', async (_what, forge, message) => {
    const err = await render(forge);
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('SynthCrashed');
    expect((err as Error).message).toMatch(message);
  });
});
