import { describe, expect, it } from 'vitest';
import { bothSides, useSopsBench } from './sops-attacker.js';

// Attack (issue 31, item 13): the `type:` of an ENC[…] value is not authenticated. Relabelled
// `int`, sops's own error quotes the plaintext ("strconv.Atoi: parsing …"), and Groundwork's said
// "is not a valid int" only when the value did not parse: an oracle for what the value looks like.
// Groundwork now refuses any Secret value not labelled `str`, from the label alone, before
// decrypting: the same answer whatever the value.

const bench = useSopsBench();

describe('an ENC value relabelled type:int', () => {
  it('gives the same refusal for a value that parses as an int and one that does not', async () => {
    const file = 'secrets/flat.sops.yaml';
    const enc = await bench.encrypt('flat.yaml', 'digits: "12345"\nword: planted-word-93ab\n');
    const relabel = (key: string) =>
      enc.replace(new RegExp(`(${key}: ENC\\[[^\\]]*),type:str\\]`), '$1,type:int]');
    const digits = relabel('digits');
    const word = relabel('word');
    expect(digits).not.toBe(enc);
    expect(word).not.toBe(enc);
    // sops itself leaks the text of a relabelled value in its error.
    await expect(bench.decrypt('word.yaml', word)).rejects.toThrow(/planted-word-93ab/);

    const answers = [];
    for (const [text, key] of [
      [digits, 'digits'],
      [word, 'word'],
    ] as const) {
      const { render, trusted } = await bothSides(text, file, bench.identities());
      for (const e of [render, trusted]) {
        expect(e.code).toBe('SopsValueUnprotected');
        expect(e.message).toContain(`the value at ${key} is not encrypted as text (type:str)`);
        expect(`${e.message} ${e.fix}`).not.toMatch(/12345|planted-word/);
        answers.push(`${e.code} ${e.message.replace(key, 'KEY')} ${e.fix}`);
      }
    }
    expect(new Set(answers).size).toBe(1);
  });
});
