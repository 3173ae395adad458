// Issue 36: the trusted side checks a renderer answer's manifests without zod when each is plainly
// valid (`quickManifests`). A hostile answer that hides one bad manifest, or a bad field beside the
// manifests, among thousands of good ones must still be refused as zod refused it, naming the
// same path, and nothing from it is returned.
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src/render/sandbox/protocol.js';
import { toManifest } from '../../src/render/synth/manifest.js';

const NONCE = 'h'.repeat(32);
const HASH = `sha256:${'b'.repeat(64)}`;
const good = Array.from({ length: 5000 }, (_, i) =>
  JSON.stringify(
    toManifest(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: 'ns' },
        data: { i: `${i}` },
      },
      `platform/cm-${i}`,
    ),
  ),
);

/** A frame whose one result holds the good manifests and then `last` (JSON text), and `more` fields. */
const frame = (last: string, more = '') =>
  Buffer.from(
    `${NONCE}\n{"ok":true,"results":[{"platform":"p","overlay":"dev","manifests":[${[...good, last].join(',')}],"hash":"${HASH}","warnings":[]${more}}]}`,
  );

const at = `results[0].manifests[${good.length}]`;
const valid = { id: 'ns_x__ConfigMap', stage: 'resources', hash: HASH, source: 'platform/x' };
const object = (metadata: unknown, kind = 'ConfigMap') => ({ apiVersion: 'v1', kind, metadata, data: {} });

describe('a hostile answer among thousands of good manifests (quick check, then zod)', () => {
  it.each([
    [
      'a `__proto__` key on the manifest',
      `${JSON.stringify({ ...valid, object: object({ name: 'x', namespace: 'ns' }) }).slice(0, -1)},"__proto__":{}}`,
      `${at}: Unrecognized key`,
    ],
    [
      'a name that climbs a path',
      JSON.stringify({ ...valid, object: object({ name: '..', namespace: 'ns' }) }),
      `${at}.object.metadata.name`,
    ],
    [
      'a namespace with a slash',
      JSON.stringify({ ...valid, object: object({ name: 'x', namespace: 'a/b' }) }),
      `${at}.object.metadata.namespace`,
    ],
    [
      'a null namespace',
      JSON.stringify({ ...valid, object: object({ name: 'x', namespace: null }) }),
      `${at}.object.metadata.namespace`,
    ],
    [
      'a kind with a dash',
      JSON.stringify({ ...valid, object: object({ name: 'x', namespace: 'ns' }, 'Config-Map') }),
      `${at}.object.kind`,
    ],
    [
      'an upper-case hash',
      JSON.stringify({ ...valid, hash: HASH.toUpperCase(), object: object({ name: 'x', namespace: 'ns' }) }),
      `${at}.hash`,
    ],
    [
      'a source past the text bound',
      JSON.stringify({
        ...valid,
        source: 's'.repeat(64 * 1024 + 1),
        object: object({ name: 'x', namespace: 'ns' }),
      }),
      `${at}.source`,
    ],
    [
      'an unknown stage',
      JSON.stringify({ ...valid, stage: 'later', object: object({ name: 'x', namespace: 'ns' }) }),
      `${at}.stage`,
    ],
    [
      'an object without metadata',
      JSON.stringify({ ...valid, object: { apiVersion: 'v1', kind: 'ConfigMap' } }),
      `${at}.object`,
    ],
  ])('%s: refused, naming the manifest', (_what, last, path) => {
    const decoded = decodeFrame(frame(last), NONCE);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.problem).toContain('malformed');
    expect(!decoded.ok && decoded.problem).toContain(path);
  });

  it('good manifests beside a bad field of the result: refused (zod checks all but the manifests)', () => {
    const last = good[0]!.replace('cm-0', 'cm-last').replace('"i":"0"', '"i":"last"');
    const decoded = decodeFrame(frame(last, ',"extra":true'), NONCE);
    expect(!decoded.ok && decoded.problem).toContain('results[0]: Unrecognized key');
    const warned = decodeFrame(
      Buffer.from(frame(last).toString().replace('"warnings":[]', '"warnings":[{"path":"p"}]')),
      NONCE,
    );
    expect(!warned.ok && warned.problem).toContain('results[0].warnings[0]');
  });

  it('an id that is not its object’s, after the quick check passed: refused as inconsistent', () => {
    const last = JSON.stringify({
      ...valid,
      id: 'ns_other__ConfigMap',
      object: object({ name: 'x', namespace: 'ns' }),
    });
    const decoded = decodeFrame(frame(last), NONCE);
    expect(!decoded.ok && decoded.problem).toContain(`${at}.id: not the id of its object`);
  });

  it('the good manifests alone are read, every one', () => {
    const last = JSON.stringify({ ...valid, object: object({ name: 'x', namespace: 'ns' }) });
    const decoded = decodeFrame(frame(last), NONCE);
    expect(decoded.ok && decoded.output.ok && decoded.output.results[0]!.manifests).toHaveLength(
      good.length + 1,
    );
  });
});
