import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesDataUrl, decodeDataUrl, isBase64, textDataUrl } from '../../src/machine-config/index.js';

const utf8 = (bytes: Uint8Array | undefined) => Buffer.from(bytes!).toString('utf8');

describe('data: URLs', () => {
  it("percent-encodes text like Go's dataurl.EscapeString: only A-Z a-z 0-9 - _ . ! ~ * ' ( ) stay", () => {
    expect(textDataUrl("az AZ 09 -_.!~*'() /%+,;=?#\n")).toBe(
      "data:,az%20AZ%2009%20-_.!~*'()%20%2F%25%2B%2C%3B%3D%3F%23%0A",
    );
    expect(textDataUrl('')).toBe('data:,');
  });

  it('encodes UTF-8 per byte', () => {
    expect(textDataUrl('é€')).toBe('data:,%C3%A9%E2%82%AC');
    expect(utf8(decodeDataUrl('data:,%C3%A9%E2%82%AC'))).toBe('é€');
  });

  it('round-trips any text (lone surrogates become U+FFFD, as in UTF-8)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const url = textDataUrl(s);
        expect(/^data:,[\x21-\x7e]*$/.test(url)).toBe(true);
        expect(utf8(decodeDataUrl(url))).toBe(Buffer.from(s, 'utf8').toString('utf8'));
      }),
    );
  });

  it('round-trips any bytes through base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const url = bytesDataUrl(bytes);
        expect(url.startsWith('data:;base64,')).toBe(true);
        expect(decodeDataUrl(url)).toEqual(bytes);
      }),
    );
  });

  it('encodes a Buffer view by its own bytes, not its pool', () => {
    const view = Buffer.from('xxhelloxx').subarray(2, 7);
    expect(bytesDataUrl(view)).toBe('data:;base64,aGVsbG8=');
  });

  it('decodes media types and refuses what the MCO cannot decode', () => {
    expect(utf8(decodeDataUrl('data:text/plain;charset=utf-8;base64,aGk='))).toBe('hi');
    expect(utf8(decodeDataUrl('data:text/plain,a%20b'))).toBe('a b');
    expect(decodeDataUrl('https://example.com/x')).toBeUndefined();
    expect(decodeDataUrl('data:no-comma')).toBeUndefined();
    expect(decodeDataUrl('data:,50%')).toBeUndefined();
    expect(decodeDataUrl('data:,%zz')).toBeUndefined();
    expect(decodeDataUrl('data:,é')).toBeUndefined();
    expect(decodeDataUrl('data:;base64,aGk')).toBeUndefined();
  });

  it('accepts only standard padded base64', () => {
    expect(['', 'aGk=', 'aGVsbG8=', 'AAEC/w=='].every(isBase64)).toBe(true);
    expect(['aGk', 'aG k=', 'aGk=\n', 'aGk_', '===='].some(isBase64)).toBe(false);
  });
});
