import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDataUrl, MachineConfig, type MachineConfigFile } from '../../src/machine-config/index.js';
import { ofKind, synth } from './helpers.js';

/** Mostly valid values (so that both outcomes are common), sometimes anything. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: other });

const path = mostly(
  fc.stringMatching(/^\/(etc|var|usr\/local)\/[a-z0-9]{1,6}(\.[a-z]{1,4})?$/),
  fc.oneof(
    fc.string(),
    fc
      .array(fc.constantFrom('etc', 'usr', '..', '.', '', 'a b', 'run'), { maxLength: 5 })
      .map((segments) => `/${segments.join('/')}`),
  ),
);
const mode = mostly(
  fc.oneof(
    fc.integer({ min: 0, max: 0o777 }),
    fc.constantFrom('0644', '644', '0o600', '0755'),
    fc.constant(undefined),
  ),
  fc.oneof(fc.integer({ min: -10, max: 5000 }), fc.constantFrom('4755', 'rw', '0999'), fc.double()),
);
const contents = mostly(
  fc.oneof(
    fc.string(),
    fc.record({ text: fc.string() }),
    fc.record({ base64: fc.base64String() }),
    fc.uint8Array({ maxLength: 64 }),
  ),
  fc.oneof(fc.record({ base64: fc.string() }), fc.record({ source: fc.webUrl() }), fc.anything()),
);
const fileArb = mostly(
  fc.record(
    { path, mode, contents, overwrite: fc.option(fc.boolean(), { nil: undefined }) },
    { requiredKeys: ['path', 'contents'] },
  ),
  fc.anything(),
);

/** What a friendly contents value should decode to, or undefined when it is not one. */
function expectedBytes(c: unknown): Uint8Array | undefined {
  if (typeof c === 'string') return Buffer.from(c, 'utf8');
  if (c instanceof Uint8Array) return c;
  const o = c as { text?: unknown; base64?: unknown };
  if (typeof o?.text === 'string') return Buffer.from(o.text, 'utf8');
  if (typeof o?.base64 === 'string') return Buffer.from(o.base64, 'base64');
  return undefined;
}

describe('MachineConfig over arbitrary file lists (property)', () => {
  it('emits a MachineConfig carrying every file, or records issues on its path; never throws', () => {
    fc.assert(
      fc.property(fc.array(fileArb, { maxLength: 6 }), (files) => {
        const s = synth(
          (p) => new MachineConfig(p, 'mc', { pool: 'worker', files: files as MachineConfigFile[] }),
        );
        const [mc, ...more] = ofKind(s.objects, 'MachineConfig');
        expect(more).toEqual([]);
        if (!mc) {
          expect(s.errors.length).toBeGreaterThan(0);
          for (const issue of s.errors) expect(issue.path).toBe('p/mc');
          return;
        }
        expect(s.errors).toEqual([]);
        const emitted =
          (
            mc.spec as {
              config: { storage?: { files: { path: string; mode: number; contents: { source: string } }[] } };
            }
          ).config.storage?.files ?? [];
        expect(emitted.map((f) => f.path)).toEqual((files as MachineConfigFile[]).map((f) => f.path));
        emitted.forEach((f, i) => {
          expect(Number.isInteger(f.mode) && f.mode >= 0 && f.mode <= 0o777).toBe(true);
          expect(decodeDataUrl(f.contents.source)).toEqual(
            new Uint8Array(expectedBytes((files[i] as MachineConfigFile).contents)!),
          );
        });
      }),
      { numRuns: 300 },
    );
  });
});
