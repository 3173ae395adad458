import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { beforeSops, bothSides, useSopsBench } from './sops-attacker.js';

// Attack (issue 31, item 5): with `--mac-only-encrypted` the MAC leaves readable values out, and a
// key ending in `_unencrypted` is readable by sops's default rule. An attacker adds such a key with
// any value: the real sops verifies the file. Groundwork refuses a readable Secret value.

const PLANTED = 'planted-leaf-77c2';
const bench = useSopsBench();

describe('a readable SOPS value added to a file whose MAC covers encrypted values only', () => {
  it('sops accepts admin_unencrypted; Groundwork refuses it, naming the key', async () => {
    const file = 'secrets/flat.sops.yaml';
    const enc = await bench.encrypt('flat.yaml', `token: ${PLANTED}\n`, ['--mac-only-encrypted']);
    const forged = beforeSops(enc, 'admin_unencrypted: injected\n');
    expect(parse(await bench.decrypt('flat.forged.yaml', forged))).toEqual({
      token: PLANTED,
      admin_unencrypted: 'injected',
    });
    const { render, trusted } = await bothSides(forged, file, bench.identities());
    for (const e of [render, trusted]) {
      expect([e.code, e.subject]).toEqual(['SopsValueUnprotected', file]);
      expect(e.message).toContain('the value at admin_unencrypted is not encrypted');
      expect(`${e.message} ${e.fix}`).not.toMatch(new RegExp(`${PLANTED}|injected`));
    }
  });
});
