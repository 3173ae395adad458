import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { beforeSops, bothSides, useSopsBench } from './sops-attacker.js';

// Attack (issue 31, item 5): sops neither encrypts an empty value nor puts it in its MAC. Beside an
// encrypted `data` value, an empty `stringData` value blanks it (Kubernetes and Groundwork took
// stringData over data); in a flat file, an empty key can be added. The real sops accepts both
// files; Groundwork refuses them, on the render side and again on the trusted side.

const PLANTED = 'planted-empty-4be1';
const bench = useSopsBench();

describe('an empty SOPS value an attacker adds', () => {
  it('stringData: "" beside an encrypted data value: sops accepts it, Groundwork refuses', async () => {
    const file = 'secrets/db.sops.yaml';
    const plain = `apiVersion: v1
kind: Secret
metadata: {name: app, namespace: ns}
data:
  password: ${Buffer.from(PLANTED).toString('base64')}
`;
    const enc = await bench.encrypt('db.yaml', plain, ['--encrypted-regex', '^(data|stringData)$']);
    const forged = beforeSops(enc, 'stringData:\n    password: ""\n');
    // The real sops verifies the forged file and hands out the blank value.
    expect(parse(await bench.decrypt('db.forged.yaml', forged)).stringData).toEqual({ password: '' });

    const { render, trusted } = await bothSides(forged, file, bench.identities());
    for (const e of [render, trusted]) {
      expect([e.code, e.subject]).toEqual(['SopsValueUnprotected', file]);
      expect(e.message).toContain('has both data and stringData');
      expect(e.fix).toContain('one of data or stringData');
      expect(`${e.message} ${e.fix}`).not.toContain(PLANTED);
    }
  });

  it('an empty key added to a flat file: sops accepts it, Groundwork refuses naming the key', async () => {
    const file = 'secrets/flat.sops.yaml';
    const enc = await bench.encrypt('flat.yaml', `token: ${PLANTED}\n`);
    const forged = beforeSops(enc, 'admin_password: ""\n');
    expect(parse(await bench.decrypt('flat.forged.yaml', forged))).toEqual({
      token: PLANTED,
      admin_password: '',
    });
    const { render, trusted } = await bothSides(forged, file, bench.identities());
    for (const e of [render, trusted]) {
      expect([e.code, e.subject]).toEqual(['SopsValueUnprotected', file]);
      expect(e.message).toContain('the value at admin_password is empty');
      expect(e.fix).toBe('give it a value, or remove the key');
    }
  });

  it('the file as sops wrote it is still accepted (the refusal is about the forgery)', async () => {
    const { sealSecretFile } = await import('../../src/secrets/seal-sops.js');
    const enc = await bench.encrypt('ok.yaml', `token: ${PLANTED}\n`);
    expect(sealSecretFile(enc, 'secrets/ok.sops.yaml').leaves.map((l) => l.path)).toEqual([['token']]);
  });
});
