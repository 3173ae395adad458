import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/core/address-class.js';
import { addressProblem, urlProblem } from '../../src/core/outbound-url.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['[fe80::1%eth0]', 'link-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fd12::1', 'private'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'multicast'],
    ['2606:4700::1', 'public'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['[::ffff:a9fe:a9fe]', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:0:169.254.1.1', 'link-local'],
    ['::169.254.1.1', 'link-local'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b:1::a9fe:101', 'link-local'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:0808:0808::1', 'public'],
    // Teredo: server 65.54.227.120, client 169.254.169.254 (obfuscated: 0x5601 0x5601)
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'metadata'],
    ['example.com', 'invalid'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });
});

describe('urlProblem (shape and IP literals)', () => {
  const policy = { allowLoopback: false };
  it.each([
    ['http://[::ffff:169.254.169.254]/', /metadata/],
    ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://0xa9fea9fe/', /metadata/],
    ['http://[fe80::1]/', /link-local/],
    ['http://127.0.0.1:8080/', /loopback/],
    ['http://[::]/', /unspecified/],
    ['https://user:pw@example.com/', /user name or password/],
    ['file:///etc/passwd', /scheme/],
    ['gopher://example.com/', /scheme/],
    ['not a url', /not a URL/],
  ])('%s is refused', (url, why) => {
    expect(urlProblem(url, policy)).toMatch(why);
  });

  it('accepts a public or private host, and loopback only when allowed', () => {
    expect(urlProblem('https://hooks.example.com/x', policy)).toBeUndefined();
    expect(urlProblem('http://10.0.0.7:8080/alerts', policy)).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:8080/', { allowLoopback: true })).toBeUndefined();
    expect(urlProblem('http://10.0.0.7/', { allowPrivate: false })).toMatch(/private/);
  });
});

describe('IPv6 forms of an IPv4 address: properties', () => {
  const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
  it('mapped, SIIT, NAT64, 6to4 and compatible forms are allowed exactly when the IPv4 address is', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.boolean(), (v4, allowLoopback) => {
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        const policy = { allowLoopback };
        const refused = addressProblem(v4, policy) !== undefined;
        const forms = [
          `::ffff:${v4}`,
          `::ffff:${hex(a, b)}:${hex(c, d)}`,
          `::ffff:0:${v4}`,
          `64:ff9b::${v4}`,
          `64:ff9b:1::${hex(a, b)}:${hex(c, d)}`,
          `2002:${hex(a, b)}:${hex(c, d)}::1`,
        ];
        for (const form of forms) expect(addressProblem(form, policy) !== undefined, form).toBe(refused);
      }),
      { numRuns: 3000 },
    );
  });

  it('any link-local or metadata IPv4 address is refused in every URL form', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), (c, d) => {
        const v4 = `169.254.${c}.${d}`;
        for (const host of [
          v4,
          `[::ffff:${v4}]`,
          `[64:ff9b::${v4}]`,
          `${(0xa9fe0000 + c * 256 + d).toString()}`,
        ])
          expect(urlProblem(`http://${host}/`, { allowLoopback: true }), host).toBeDefined();
      }),
      { numRuns: 1000 },
    );
  });
});
