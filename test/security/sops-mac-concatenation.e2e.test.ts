import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { bothSides, useSopsBench } from './sops-attacker.js';

// Attack (issue 31, item 5): sops's MAC hashes the values one after the other with no separator,
// and neither keys nor `encrypted_regex` are in it. An attacker who knows one encrypted value turns
// it readable (edits encrypted_regex) and splits its text over a new key and the old one: the MAC
// input is the same bytes, so the real sops verifies a file with values nobody encrypted.
// Groundwork refuses any readable Secret value.

const KNOWN = 'hunter2';
const bench = useSopsBench();

describe('a known SOPS value split across keys after encrypted_regex is edited', () => {
  it('sops accepts the forged Secret; Groundwork refuses it naming the readable key', async () => {
    const file = 'secrets/app.sops.yaml';
    const plain = `apiVersion: v1
kind: Secret
metadata:
  name: app
  namespace: ns
type: Opaque
stringData:
  password: ${KNOWN}
`;
    const enc = await bench.encrypt('app.yaml', plain, ['--encrypted-regex', '^(data|stringData)$']);
    const forged = enc
      .replace(/stringData:\n {4}password: ENC\[[^\]]*\]/, 'stringData:\n    pass: hunt\n    password: er2')
      .replace('encrypted_regex: ^(data|stringData)$', 'encrypted_regex: ^data$');
    expect(forged).not.toBe(enc);
    expect(parse(await bench.decrypt('app.forged.yaml', forged)).stringData).toEqual({
      pass: 'hunt',
      password: 'er2',
    });

    const { render, trusted } = await bothSides(forged, file, bench.identities());
    for (const e of [render, trusted]) {
      expect([e.code, e.subject]).toEqual(['SopsValueUnprotected', file]);
      expect(e.message).toContain('the value at stringData.pass is not encrypted');
      expect(e.fix).toContain('--encrypted-regex');
      expect(`${e.message} ${e.fix}`).not.toMatch(/hunt|er2/);
    }
  });

  it('refuses a file whose own rules leave a Secret value readable (the author encrypted only metadata)', async () => {
    const file = 'secrets/meta.sops.yaml';
    const enc = await bench.encrypt(
      'meta.yaml',
      `apiVersion: v1\nkind: Secret\nmetadata: {name: app, namespace: ns}\nstringData:\n  token: ${KNOWN}\n`,
      ['--encrypted-regex', '^metadata$'],
    );
    expect(parse(await bench.decrypt('meta.check.yaml', enc)).stringData).toEqual({ token: KNOWN });
    const { render, trusted } = await bothSides(enc, file, bench.identities());
    for (const e of [render, trusted]) {
      expect(e.code).toBe('SopsValueUnprotected');
      expect(e.message).toContain('stringData.token is not encrypted');
      expect(e.message).not.toContain(KNOWN);
    }
  });
});
