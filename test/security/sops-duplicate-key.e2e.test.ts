import { describe, expect, it } from 'vitest';
import { decryptSopsSecrets } from '../../src/secrets/decrypt-secrets.js';
import { sealSecretFile, sealSops } from '../../src/secrets/seal-sops.js';
import { refusal, resultWith, sealedSecret, useSopsBench } from './sops-attacker.js';

// Attack (issue 31, item 5): a JSON SOPS file may hold a key twice. Appended as an empty value, the
// second copy is outside the MAC: the real sops verifies the file and prints both, and a JSON reader
// after it (Flux, kubectl) keeps the last, blank one. Groundwork refuses a key written twice.

const PLANTED = 'planted-dup-1f9d';
const bench = useSopsBench();

describe('a key written twice in a SOPS file', () => {
  it('sops accepts "word": "" after the encrypted word; Groundwork refuses the duplicate', async () => {
    const file = 'secrets/app.sops.json';
    const enc = await bench.encrypt('app.json', JSON.stringify({ token: PLANTED, word: 'hello' }));
    const forged = enc.replace('"sops": {', '"word": "",\n\t"sops": {');
    expect(forged).not.toBe(enc);
    const out = await bench.decrypt('app.forged.json', forged);
    expect(JSON.parse(out)).toEqual({ token: PLANTED, word: '' });

    // The render side reads the file with unique keys.
    const render = await refusal(() => sealSecretFile(forged, file));
    expect([render.code, render.subject]).toEqual(['SopsFileInvalid', file]);
    expect(render.message).toContain('has a key twice');
    expect(render.message).not.toContain(PLANTED);

    // A compromised renderer sends both leaves: the trusted side's schema refuses a path twice.
    const sealed = sealSops(enc, file).sealed;
    const twice = { ...sealed, leaves: [...sealed.leaves, { path: ['word'], plain: '' }] };
    const trusted = await refusal(() =>
      decryptSopsSecrets(resultWith(sealedSecret(file, JSON.stringify(twice))), async () =>
        bench.identities(),
      ),
    );
    expect([trusted.code, trusted.subject]).toEqual(['SopsFileInvalid', file]);
    expect(trusted.message).toContain('a key path appears twice');
  });
});
