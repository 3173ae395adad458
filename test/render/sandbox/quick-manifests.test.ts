import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idOf } from '../../../src/core/object-id.js';
import { stageOf } from '../../../src/core/stages.js';
import { manifestSchema } from '../../../src/render/sandbox/protocol.js';
import { quickManifest, quickManifests } from '../../../src/render/sandbox/quick-manifests.js';

const TEXT_MAX = 64 * 1024;
const HASH = `sha256:${'a'.repeat(64)}`;

/** zod's verdict on one manifest (the schema decodeFrame holds every answer to), and its output. */
function decoded(manifest: string): { accepted: boolean; output?: unknown } {
  const parsed = manifestSchema.safeParse(JSON.parse(manifest));
  return parsed.success ? { accepted: true, output: parsed.data } : { accepted: false };
}

/** The manifest's id and stage as its object's, where the object has an identity at all. */
function consistent(m: Record<string, unknown>): Record<string, unknown> {
  try {
    const object = m.object as Parameters<typeof idOf>[0];
    return { ...m, id: idOf(object), stage: stageOf(object as Parameters<typeof stageOf>[0]) };
  } catch {
    return m;
  }
}

/** Valid values of each field, and values that break it (or might: zod has the last word). */
const VALID = {
  apiVersion: ['v1', 'apps/v1', 'rbac.authorization.k8s.io/v1', 'example.com/v1beta1'],
  kind: ['ConfigMap', 'Namespace', 'Role', 'Service', 'K'.repeat(63)],
  name: ['a', 'cm-1', 'a.b', 'x:y', 'a'.repeat(63), 'a'.repeat(253)],
  namespace: [undefined, 'default', 'a'.repeat(63)],
  hash: [HASH],
  source: ['platform/x', '', 's'.repeat(TEXT_MAX)],
};
const odd: unknown[] = [null, 1, true, [], {}, undefined];
const BROKEN: Record<string, unknown[]> = {
  apiVersion: ['/v1', 'v1/', 'A/v1', 'g/1v', `${'g'.repeat(254)}/v1`, 'a/b/v1', ...odd],
  kind: ['Config-Map', '1Kind', 'K'.repeat(64), '', ...odd],
  name: ['a..b', '..', '.', 'A', 'a/b', 'a%b', '', '-a', 'a'.repeat(254), ...odd],
  namespace: ['a.b', 'A', '', 'a'.repeat(64), ...odd.filter((v) => v !== undefined)],
  hash: [
    `sha256:${'A'.repeat(64)}`,
    `sha256:${'a'.repeat(63)}`,
    `sha1:${'a'.repeat(64)}`,
    ` ${HASH}`,
    ...odd,
  ],
  source: ['s'.repeat(TEXT_MAX + 1), ...odd],
  stage: ['nope', 'Resources', ...odd],
  id: odd,
  metadata: odd,
  object: odd,
  extraKey: ['extra', '__proto__', 'apiVersion '],
};

/** A manifest as JSON text: valid choices, then up to three fields broken. */
const manifest = fc
  .record({
    valid: fc.record(Object.fromEntries(Object.entries(VALID).map(([k, v]) => [k, fc.constantFrom(...v)]))),
    broken: fc
      .subarray(Object.keys(BROKEN), { maxLength: 3 })
      .chain((keys) =>
        fc.tuple(...keys.map((k) => fc.tuple(fc.constant(k), fc.constantFrom(...BROKEN[k]!)))),
      ),
  })
  .map(({ valid, broken }) => {
    const f = { ...valid, ...Object.fromEntries(broken) } as Record<string, unknown>;
    const metadata =
      'metadata' in f
        ? f.metadata
        : { name: f.name, ...(f.namespace === undefined ? {} : { namespace: f.namespace }) };
    const object =
      'object' in f ? f.object : { apiVersion: f.apiVersion, kind: f.kind, metadata, data: { k: 'v' } };
    const m = consistent({ id: 'id', stage: 'resources', object, hash: f.hash, source: f.source });
    if ('stage' in f) m.stage = f.stage;
    if ('id' in f) m.id = f.id;
    const text = JSON.stringify(m);
    return typeof f.extraKey === 'string' ? `${text.slice(0, -1)},${JSON.stringify(f.extraKey)}:{}}` : text;
  });

describe('quickManifest: accepts only what the strict schema accepts, and returns what it returns', () => {
  it('agrees with zod on generated manifests, valid and hostile (keys and their order included)', () => {
    fc.assert(
      fc.property(manifest, (text) => {
        const quick = quickManifest(JSON.parse(text), TEXT_MAX);
        const zod = decoded(text);
        if (quick) {
          expect(zod.accepted).toBe(true);
          expect(JSON.stringify(zod.output)).toBe(JSON.stringify(quick));
        }
        // Not only sound: on these shapes it takes the quick path whenever zod would accept.
        expect(quick !== undefined).toBe(zod.accepted);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the object itself (no copy) and puts the keys in the schema’s order', () => {
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'b' } };
    const quick = quickManifest(
      { source: 's', hash: HASH, object, stage: 'resources', id: 'b_a__ConfigMap' },
      10,
    );
    expect(quick?.object).toBe(object);
    expect(Object.keys(quick!)).toEqual(['id', 'stage', 'object', 'hash', 'source']);
  });

  it('quickManifests: undefined for anything but an ok answer whose every manifest passes', () => {
    const good = {
      id: 'i',
      stage: 'resources',
      object: { apiVersion: 'v1', kind: 'A', metadata: { name: 'a' } },
      hash: HASH,
      source: 's',
    };
    expect(
      quickManifests({ ok: true, results: [{ manifests: [good] }, { manifests: [] }] }, 10),
    ).toHaveLength(2);
    for (const answer of [
      { ok: false, results: [] },
      { ok: true, results: {} },
      { ok: true, results: [{ manifests: {} }] },
      { ok: true, results: [null] },
      { ok: true, results: [{ manifests: [good, { ...good, hash: 'x' }] }] },
      [],
      null,
    ])
      expect(quickManifests(answer, 10), JSON.stringify(answer)).toBeUndefined();
  });
});
