import { describe, expect, it } from 'vitest';
import { signatureFormat, splitCommit, splitTag } from '../../../src/source/trust/signed-object.js';

const SIG = ['-----BEGIN SSH SIGNATURE-----', 'U1NIU0lH', '-----END SSH SIGNATURE-----'];
const commit = (headers: string[], message = 'msg\n') =>
  `tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n${headers.join('\n')}\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\n${message}`;

describe('splitCommit', () => {
  it('removes the gpgsig header and its continuation lines from the payload', () => {
    const raw = commit([`gpgsig ${SIG[0]}`, ` ${SIG[1]}`, ` ${SIG[2]}`]);
    const split = splitCommit(raw);
    expect(split.format).toBe('ssh');
    expect(split.signature).toBe(`${SIG.join('\n')}\n`);
    expect(split.payload).toBe(
      'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nmsg\n',
    );
  });

  it('keeps a gpgsig line of the message as message text (unsigned)', () => {
    const raw = commit([], `subject\n\ngpgsig ${SIG[0]}\n`);
    expect(splitCommit(raw)).toEqual({ payload: raw, signature: undefined, format: undefined });
  });

  it('marks two signature headers as unknown (git would verify only one)', () => {
    const raw = commit([`gpgsig ${SIG[0]}`, ` ${SIG[2]}`, `gpgsig-sha256 ${SIG[0]}`, ` ${SIG[2]}`]);
    expect(splitCommit(raw).format).toBe('unknown');
  });

  it('reads a signature of another armor as its format', () => {
    expect(signatureFormat('-----BEGIN PGP SIGNATURE-----\nx\n')).toBe('openpgp');
    expect(signatureFormat('-----BEGIN SIGNED MESSAGE-----\n')).toBe('x509');
    expect(signatureFormat('garbage\n')).toBe('unknown');
    expect(splitCommit(commit(['gpgsig not-an-armor'])).format).toBe('unknown');
  });
});

describe('splitTag', () => {
  const tag =
    'object 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ntype commit\ntag v1\ntagger A <a@x> 1 +0000\n\nrelease\n';
  it('splits at the last line opening a signature armor', () => {
    const split = splitTag(`${tag}${SIG.join('\n')}\n`);
    expect(split).toEqual({ payload: tag, signature: `${SIG.join('\n')}\n`, format: 'ssh' });
  });

  it('an armor line inside the message followed by the real signature: the last one counts', () => {
    const body = `${tag}-----BEGIN PGP SIGNATURE-----\nquoted\n`;
    const split = splitTag(`${body}${SIG.join('\n')}\n`);
    expect(split.payload).toBe(body);
    expect(split.format).toBe('ssh');
  });

  it('an unsigned tag is all payload', () => {
    expect(splitTag(tag)).toEqual({ payload: tag, signature: undefined, format: undefined });
  });
});
