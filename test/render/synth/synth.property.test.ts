import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiObject } from 'cdk8s';
import { z } from 'zod';
import { MachineConfig } from '../../../src/machine-config/index.js';
import { PlatformOperator } from '../../../src/olm/constructs/platform-operator.js';
import { ClusterVersionTarget } from '../../../src/cluster-version/target.js';
import { definePlatform } from '../../../src/render/synth/define-platform.js';
import { Platform } from '../../../src/render/synth/platform.js';
import { synthesizeDefinition } from '../../../src/render/synth/synthesize.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { renderStream } from '../../../src/render/output/write.js';

const config = {
  name: 'prop',
  entry: 'x',
  overlays: 'overlays',
  defaultOverlay: 'x',
  catalogs: [],
  graphs: [],
};
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);

type Decl =
  | { kind: 'cm'; ns: string; name: string; value: string }
  | { kind: 'op'; pkg: string; ns: string; pin?: boolean }
  | { kind: 'mc'; name: string; text: string };
const decl: fc.Arbitrary<Decl> = fc.oneof(
  fc.record({ kind: fc.constant('cm' as const), ns: name, name, value: fc.string() }),
  fc.record({ kind: fc.constant('op' as const), pkg: name, ns: name, pin: fc.boolean() }),
  fc.record({ kind: fc.constant('mc' as const), name, text: fc.string({ maxLength: 40 }) }),
);

function definition(decls: readonly Decl[]) {
  return definePlatform({
    values: z.object({}),
    build(scope) {
      const p = new Platform(scope, 'p', { openshiftVersion: '4.16' });
      decls.forEach((d, i) => {
        if (d.kind === 'cm')
          new ApiObject(p, `cm${i}`, {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: d.name, namespace: d.ns },
            data: { v: d.value },
          });
        if (d.kind === 'op')
          new PlatformOperator(p, `op${i}`, {
            package: d.pkg,
            channel: 'stable',
            namespace: d.ns,
            ...(d.pin ? { pin: `${d.pkg}.v1.0.0` } : {}),
          });
        if (d.kind === 'mc')
          new MachineConfig(p, `mc${i}`, {
            name: `99-worker-${d.name}`,
            pool: 'worker',
            files: [{ path: `/etc/${d.name}.conf`, contents: d.text }],
          });
      });
    },
  });
}

async function render(decls: readonly Decl[]): Promise<string> {
  try {
    return renderStream(
      await synthesizeDefinition(definition(decls), {}, { config, overlay: 'x', dir: '.' }),
      'yaml',
    );
  } catch (err) {
    if (err instanceof SynthValidationError)
      return `INVALID ${err.issues
        .map((i) => `${i.path} ${i.field}`)
        .sort()
        .join(';')}`;
    throw err;
  }
}

describe('synth properties', () => {
  it('is deterministic and independent of declaration order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(decl, { maxLength: 8, selector: (d) => JSON.stringify(d) }),
        fc.integer(),
        async (decls, seed) => {
          const shuffled = [...decls].sort((a, b) =>
            (JSON.stringify(a) + seed).localeCompare(JSON.stringify(b) + seed),
          );
          const [first, again] = [await render(decls), await render(decls)];
          expect(again).toBe(first);
          // Construct ids change with the order, so only valid platforms are compared across orders.
          if (!first.startsWith('INVALID')) expect(await render(shuffled)).toBe(first);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('turns arbitrary invalid props into validation errors with a path, never a crash or a partial output', async () => {
    const anything = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(undefined),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          package: anything,
          channel: anything,
          namespace: anything,
          approval: anything,
          pin: anything,
          installMode: anything,
        }),
        fc.record({ channel: anything, version: anything, image: anything }),
        async (op, cv) => {
          const def = definePlatform({
            values: z.object({}),
            build(scope) {
              const p = new Platform(scope, 'p', { openshiftVersion: '4.16' });
              new PlatformOperator(p, 'op', op as never);
              new ClusterVersionTarget(p, 'cv', cv as never);
            },
          });
          let result: Awaited<ReturnType<typeof synthesizeDefinition>> | undefined;
          try {
            result = await synthesizeDefinition(def, {}, { config, overlay: 'x', dir: '.' });
          } catch (err) {
            expect(err).toBeInstanceOf(SynthValidationError);
            const issues = (err as SynthValidationError).issues.filter((i) => i.severity === 'error');
            expect(issues.length).toBeGreaterThan(0);
            for (const i of issues) expect(i.path).toMatch(/^p\/(op|cv)/);
            return;
          }
          // Valid by chance: then it is complete (a Subscription and a ClusterVersion).
          expect(result.manifests.map((m) => m.object.kind)).toEqual(
            expect.arrayContaining(['Subscription', 'ClusterVersion']),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
