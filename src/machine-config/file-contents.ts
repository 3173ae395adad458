import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { decodeDataUrl } from './data-url.js';

/** What a reader may see of a file's contents; never more than `maxBytes` of it decoded. */
export type FileContents =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'binary'; readonly bytes: number; readonly sha256: string }
  /** Decompresses past the cap: only the cap is known, the rest was never inflated. */
  | { readonly kind: 'too-large'; readonly limit: number }
  | { readonly kind: 'invalid'; readonly reason: string };

export interface DecodeFileContentsOptions {
  /**
   * Ignition 3.1+ `contents.compression`: `gzip`, or `''`/absent for none. Any other value is
   * `invalid`, as Ignition refuses it.
   */
  readonly compression?: unknown;
  /** Most decoded (and decompressed) bytes looked at. @default 262_144 (256 KiB) */
  readonly maxBytes?: number;
}

/** The default cap on decoded bytes: far above a config file, far below a gzip bomb. */
export const MAX_DECODED_BYTES = 256 * 1024;

/**
 * Decodes an Ignition file `contents.source` (a `data:` URL, percent-encoded or base64), then
 * gunzips it when `compression` is `gzip`, inflating at most `maxBytes` (a bomb stops there and is
 * `too-large`). UTF-8 text without control bytes (but tab and line ends) or invalid sequences is `text`; anything else is
 * `binary` with its size and SHA-256, so its bytes are never shown. Never fetches a remote source
 * (`invalid`: the MCO only writes `data:` URLs) and never throws.
 */
export function decodeFileContents(source: unknown, options: DecodeFileContentsOptions = {}): FileContents {
  const maxBytes = options.maxBytes ?? MAX_DECODED_BYTES;
  if (typeof source !== 'string') return { kind: 'invalid', reason: 'no contents.source' };
  if (!source.startsWith('data:')) return { kind: 'invalid', reason: 'not a data: URL' };
  // The encoded URL bounds the raw bytes: base64 and %XX only shrink.
  const raw = decodeDataUrl(source);
  if (!raw) return { kind: 'invalid', reason: 'not a valid data: URL (bad base64 or % escape)' };
  const compression = options.compression ?? '';
  let bytes: Uint8Array;
  if (compression === 'gzip') {
    try {
      bytes = gunzipSync(raw, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        return { kind: 'too-large', limit: maxBytes };
      return { kind: 'invalid', reason: 'compression gzip, but the data is not valid gzip' };
    }
  } else if (compression === '') {
    if (raw.byteLength > maxBytes) return { kind: 'too-large', limit: maxBytes };
    bytes = raw;
  } else {
    return { kind: 'invalid', reason: `unknown compression (Ignition knows gzip only)` };
  }
  const text = asText(bytes);
  return text === undefined
    ? { kind: 'binary', bytes: bytes.byteLength, sha256: sha256(bytes) }
    : { kind: 'text', text };
}

/** One line saying what a reader sees instead of contents that are not text. */
export function describeContents(c: Exclude<FileContents, { kind: 'text' }>): string {
  switch (c.kind) {
    case 'binary':
      return `(binary, ${c.bytes} bytes, sha256 ${c.sha256})`;
    case 'too-large':
      return `(more than ${c.limit} bytes decoded: not shown)`;
    case 'invalid':
      return `(cannot be decoded: ${c.reason})`;
  }
}

/** Control bytes other than tab, newline and carriage return: binary, or a terminal escape. */
function hasControlBytes(bytes: Uint8Array): boolean {
  return bytes.some((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f);
}

function asText(bytes: Uint8Array): string | undefined {
  if (hasControlBytes(bytes)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
