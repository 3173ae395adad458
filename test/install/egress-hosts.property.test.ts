// Properties of the `--egress-host` builder (src/install/egress-hosts.ts): what it accepts is one
// address or one host name, never a range, wildcard, URL or anything a NetworkPolicy would read as more.
import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import { parseEgressHost, type EgressHost } from '../../src/install/egress-hosts.js';

const hostile = fc.oneof(
  fc.constantFrom(
    '0.0.0.0/0',
    '*.example.com',
    'https://registry.npmjs.org',
    'user@host',
    'host:0',
    'host:65536',
    '[::1',
    '[not-v6]:443',
    'a b',
    'a\nb',
    '..',
    '1.2.3.4:443',
    '[2001:db8::1]:8443',
    'registry.npmjs.org',
    'Charts.Example.com.:8443',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('a', 'z', '0', '9', '.', '-', ':', '[', ']', '/', '*', '@', ' ', '\n', 'f', ':'),
    maxLength: 30,
  }),
  fc.ipV4(),
  fc.ipV6().map((ip) => `[${ip}]`),
  fc.domain(),
  fc.tuple(fc.domain(), fc.integer({ min: -1, max: 70000 })).map(([d, p]) => `${d}:${p}`),
);

function parsedOrRefused(value: string): EgressHost | 'refused' {
  try {
    return parseEgressHost(value);
  } catch (e) {
    if (hasCode(e, 'InvalidFlag')) return 'refused';
    throw e;
  }
}

describe('parseEgressHost: properties', () => {
  it('accepts only one IP address or one lower-case host name with a port 1-65535, which a URL keeps as given', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const parsed = parsedOrRefused(value);
        if (parsed === 'refused') return;
        expect(Number.isInteger(parsed.port) && parsed.port >= 1 && parsed.port <= 65535).toBe(true);
        expect(parsed.host).not.toMatch(/[/*@\s[\]]/);
        const family = isIP(parsed.host);
        if (family === 0) {
          expect(parsed.host.length).toBeLessThanOrEqual(253);
          expect(parsed.host).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/);
          expect(parsed.host).not.toMatch(/(^|\.)\d+$/); // a last label of digits only is no name
        }
        const url = new URL(`https://${family === 6 ? `[${parsed.host}]` : parsed.host}:${parsed.port}/`);
        const hostname = url.hostname.replace(/^\[|\]$/g, '');
        if (family === 6) expect(isIP(hostname)).toBe(6);
        else expect(hostname).toBe(parsed.host);
        expect(url.username + url.password).toBe('');
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same answer for a value and its upper-case spelling (names are case-insensitive)', () => {
    fc.assert(
      fc.property(fc.domain(), (d) => {
        expect(parsedOrRefused(d.toUpperCase())).toEqual(parsedOrRefused(d));
      }),
    );
  });
});
