// Properties of the one gate between a name and an apiserver request path (src/cluster/request-path.ts):
// what it accepts keeps its segments through the URL parser the client uses (`new URL(server + path)`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import type { NameRule } from '../../src/core/object-name.js';
import { checkRequestPath, pathSegment } from '../../src/cluster/request-path.js';

const SERVER = 'https://127.0.0.1:6443';

/** Names a hostile repository or renderer answer may carry: dot segments, separators, escapes, and plain names. */
const hostileName = fc.oneof(
  fc.constantFrom(
    '.',
    '..',
    '',
    '../x',
    'a/b',
    '%2e',
    '%2e%2e',
    '.%2E',
    'a%2fb',
    '..\\x',
    '\\',
    '.\n.',
    '.\t.',
    'a?b',
    'a#b',
    '\uD800',
    'ok-name',
    'a.b',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom('.', '/', '\\', '%', '2', 'e', 'E', 'f', '\n', '\t', '?', '#', 'a', '-'),
    maxLength: 12,
  }),
);

const rule = fc.constantFrom<NameRule>('dns-label', 'dns-subdomain', 'path-segment');

/** `pathSegment`'s answer, or 'refused' when it threw InvalidObjectName (any other throw fails the property). */
function segmentOrRefused(value: string, what: 'namespace' | 'name', r: NameRule): string | 'refused' {
  try {
    return pathSegment(value, what, r);
  } catch (e) {
    if (hasCode(e, 'InvalidObjectName')) return 'refused';
    throw e;
  }
}

function pathAccepted(path: string): boolean {
  try {
    checkRequestPath(path);
    return true;
  } catch (e) {
    if (hasCode(e, 'InvalidObjectName')) return false;
    throw e;
  }
}

describe('pathSegment: properties', () => {
  it('an accepted segment is never a dot segment, holds no "/", decodes to the name, and keeps its place in the URL', () => {
    fc.assert(
      fc.property(hostileName, hostileName, rule, (ns, name, r) => {
        const nsSeg = segmentOrRefused(ns, 'namespace', 'dns-label');
        const nameSeg = segmentOrRefused(name, 'name', r);
        for (const [seg, raw] of [
          [nsSeg, ns],
          [nameSeg, name],
        ] as const) {
          if (seg === 'refused') continue;
          expect(['', '.', '..']).not.toContain(seg);
          expect(seg).not.toMatch(/[/\\?#\t\n\r]/);
          expect(decodeURIComponent(seg)).toBe(raw);
        }
        if (nsSeg === 'refused' || nameSeg === 'refused') return;
        const path = `/api/v1/namespaces/${nsSeg}/configmaps/${nameSeg}`;
        expect(pathAccepted(path)).toBe(true);
        const url = new URL(SERVER + path);
        expect(url.pathname.split('/')).toEqual([
          '',
          'api',
          'v1',
          'namespaces',
          nsSeg,
          'configmaps',
          nameSeg,
        ]);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
      }),
      { numRuns: 2000 },
    );
  });

  it.each(['.', '..', '', '../x', 'a/b', '%2e', '%2e%2e', 'a%2fb', '\uD800', 'x\uDC00'])(
    'refuses the hostile name %j with InvalidObjectName, for every rule',
    (name) => {
      for (const r of ['dns-label', 'dns-subdomain', 'path-segment'] as const)
        expect(segmentOrRefused(name, 'name', r)).toBe('refused');
    },
  );
});

describe('checkRequestPath: properties', () => {
  it('a path it accepts reaches the URL parser unchanged: same segments, nothing resolved or stripped', () => {
    const segment = fc.string({
      unit: fc.constantFrom('.', '\\', '%', '2', 'e', 'E', '\n', '\t', '\r', 'a', '-'),
      maxLength: 6,
    });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const path = `/api/v1/namespaces/${segments.join('/')}`;
        if (!pathAccepted(path)) return;
        expect(new URL(SERVER + path).pathname).toBe(path);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '/api/v1/namespaces/a/configmaps/..',
    '/api/v1/namespaces/a/configmaps/%2E%2e',
    '/api/v1/namespaces/a/configmaps/.%2e',
    '/api/v1/namespaces/a/configmaps/..\\x',
    '/api/v1/namespaces/a/configmaps/.\n.',
    '/api/v1/namespaces/a/configmaps/.\t./x',
    '/api/v1/namespaces//configmaps/x',
  ])('refuses the hand-built path %j', (path) => {
    expect(pathAccepted(path)).toBe(false);
  });
});
