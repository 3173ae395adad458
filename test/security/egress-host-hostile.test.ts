import { describe, expect, it } from 'vitest';
import { parseEgressHost } from '../../src/install/egress-hosts.js';
import { hasCode } from '../../src/core/errors.js';

// `bootstrap --egress-host` widens the agent's NetworkPolicy: a value must name one host, never a
// range, a wildcard or a URL, and an error must not carry the value's control characters.
const HOSTILE = [
  '0.0.0.0/0',
  '10.0.0.0/8',
  '::/0',
  '[::]/0',
  '*',
  '*.example.com',
  'https://registry.npmjs.org/',
  'user:pass@registry.npmjs.org',
  'registry.npmjs.org/path',
  'registry.npmjs.org:0',
  'registry.npmjs.org:65536',
  'registry.npmjs.org:443:1',
  'registry.npmjs.org:-1',
  'a..b',
  '-bad.example.com',
  'bad-.example.com',
  'under_score.example.com',
  '1.2.3',
  '999.1.1.1',
  'a b',
  'host\nx',
  'host\u001b[2Jx',
  '[not-an-ip]:443',
  '[::1',
  '',
  ' ',
  '.',
  `${'a'.repeat(64)}.example.com`,
  `${'a.'.repeat(130)}com`,
  'x'.repeat(5000),
];

describe('--egress-host refuses what is not one host', () => {
  it.each(HOSTILE.map((v) => [JSON.stringify(v.slice(0, 40)), v]))('%s', (_, value) => {
    let caught: unknown;
    try {
      parseEgressHost(value);
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, 'InvalidFlag')).toBe(true);
    const text = String(caught);
    expect(text).toContain('--egress-host');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(text.length).toBeLessThan(600);
  });
});
