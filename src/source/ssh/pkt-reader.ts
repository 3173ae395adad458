/** Why reading git's pkt-lines from a server stopped: the text says it, the kind lets callers map it. */
export class PktLineError extends Error {
  constructor(
    readonly kind: 'framing' | 'too-large' | 'truncated' | 'server-error',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a git server's output (the pack protocol's pkt-lines, gitprotocol-common(5)) from a byte
 * stream: the reference advertisement up to its flush-pkt, then whatever follows as it arrives.
 * Every read is bounded by the caller's byte limit; a line that is not framed as a pkt-line, or an
 * `ERR` line, stops the read. Holds at most one advertisement in memory.
 */
export class PktReader {
  private buffer = Buffer.alloc(0);
  private length = 0;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /**
   * The pkt-lines up to and including the first flush-pkt (`0000`), as bytes, at most `max` of
   * them. Throws `PktLineError`: `framing` (not four hex digits, or a length 1 to 3),
   * `server-error` (an `ERR <message>` line), `too-large`, `truncated` (the stream ended first).
   */
  async untilFlush(max: number): Promise<Buffer> {
    let offset = 0;
    for (;;) {
      await this.fill(offset + 4, max);
      const hex = this.buffer.subarray(offset, offset + 4).toString('latin1');
      if (!/^[0-9a-f]{4}$/i.test(hex))
        throw new PktLineError('framing', 'the server’s answer is not git’s pkt-line protocol');
      const size = parseInt(hex, 16);
      if (size === 0) {
        offset += 4;
        break;
      }
      if (size < 4) throw new PktLineError('framing', `a pkt-line of length ${size} where none is allowed`);
      await this.fill(offset + size, max);
      const payload = this.buffer.subarray(offset + 4, offset + size);
      if (payload.subarray(0, 4).toString('latin1') === 'ERR ')
        throw new PktLineError('server-error', payload.subarray(4).toString('utf8'));
      offset += size;
    }
    const out = Buffer.from(this.buffer.subarray(0, offset));
    this.buffer.copy(this.buffer, 0, offset, this.length);
    this.length -= offset;
    return out;
  }

  /**
   * The rest of the stream: what is buffered, then each chunk as it arrives, `max` bytes in all
   * (`too-large` past that).
   */
  async *rest(max: number): AsyncGenerator<Uint8Array> {
    let total = this.length;
    if (total > max) throw tooLarge(max);
    if (this.length > 0) yield Buffer.from(this.buffer.subarray(0, this.length));
    this.buffer = Buffer.alloc(0);
    this.length = 0;
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      total += next.value.length;
      if (total > max) throw tooLarge(max);
      yield next.value;
    }
  }

  /** Reads until `need` bytes are buffered; the buffer doubles, so reading n bytes copies O(n). */
  private async fill(need: number, max: number): Promise<void> {
    if (need > max) throw tooLarge(max);
    while (this.length < need) {
      const next = await this.source.next();
      if (next.done) throw new PktLineError('truncated', 'the server closed the stream mid-answer');
      const chunk = next.value;
      if (this.length + chunk.length > this.buffer.length) {
        const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + chunk.length, 4096));
        this.buffer.copy(grown, 0, 0, this.length);
        this.buffer = grown;
      }
      Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).copy(this.buffer, this.length);
      this.length += chunk.length;
    }
  }
}

const tooLarge = (max: number) => new PktLineError('too-large', `the server sent more than ${max} bytes`);

/** One pkt-line of `text` (its four hex digits of length, then the text). */
export function pktLine(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'latin1'), body]);
}

/** The flush-pkt. */
export const FLUSH_PKT = Buffer.from('0000', 'latin1');
