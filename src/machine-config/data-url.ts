/**
 * `data:` URLs as the MCO reads them (RFC 2397 via Go's `github.com/vincent-petithory/dataurl`):
 * the only file sources a MachineConfig may use, because the machine-config daemon writes file
 * contents from the rendered config and never fetches anything.
 */

/** Bytes Go's `dataurl.Escape` leaves as they are; every other byte becomes `%XX`. */
const UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * `data:,<percent-encoded UTF-8>`, byte for byte what Go's `dataurl.EscapeString` produces.
 * Lone surrogates in `text` become U+FFFD (UTF-8 cannot carry them).
 */
export function textDataUrl(text: string): string {
  let out = 'data:,';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += UNRESERVED.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `data:;base64,<base64>` for arbitrary bytes. */
export function bytesDataUrl(bytes: Uint8Array): string {
  return `data:;base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** True for standard, padded base64 without whitespace (what Go's `base64.StdEncoding` accepts). */
export function isBase64(value: string): boolean {
  return BASE64.test(value);
}

/**
 * Decodes a `data:` URL to its bytes, or returns undefined when the MCO could not decode it:
 * not a `data:` URL, invalid base64, a bad `%` escape, or a non-ASCII character in the data.
 * Does not look at the media type.
 */
export function decodeDataUrl(url: string): Uint8Array | undefined {
  const m = /^data:([^,]*),(.*)$/s.exec(url);
  if (!m) return undefined;
  const params = m[1]!.split(';');
  const data = m[2]!;
  if (params[params.length - 1]!.trim().toLowerCase() === 'base64') {
    return isBase64(data) ? new Uint8Array(Buffer.from(data, 'base64')) : undefined;
  }
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code > 0x7f) return undefined;
    if (data[i] !== '%') {
      out.push(code);
      continue;
    }
    const hex = data.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
    out.push(parseInt(hex, 16));
    i += 2;
  }
  return new Uint8Array(out);
}
