/**
 * Cuts a byte stream into lines of text.
 *
 * Chunks may split a line, a CRLF pair, or a multi-byte UTF-8 character
 * anywhere; the framer carries the unfinished part over to the next chunk.
 * Lines come out without their `\n` or `\r\n`; empty lines are skipped.
 *
 * Lines are found in the bytes (a newline byte never occurs inside a UTF-8
 * character) and each is decoded whole: under Node with `Buffer`'s decoder,
 * which gives JSON.parse a compact string, and elsewhere with `TextDecoder`.
 * (A streaming TextDecoder cost the stdio transport a quarter of its time per
 * message.)
 */
export class LineFramer {
  private readonly decoder = new TextDecoder('utf-8');
  /** The bytes of a line still waiting for its newline, and how many. */
  private pieces: Uint8Array[] = [];
  private pending = 0;

  /** True while the rest of a line already cut is being skipped, up to its newline. */
  private skipping = false;

  /**
   * @param maxLineLength the longest line, in bytes.
   * @param tooLong what a longer line does: `'throw'` (`push` throws
   *   `LineTooLongError`: the stream carries messages, and one cannot be
   *   read whole) or `'cut'` (its first `maxLineLength` bytes come out as a
   *   line and the rest, up to the next newline, is dropped unread: the
   *   stream is only text to show, and holding an endless line would hold
   *   memory without end).
   */
  constructor(
    private readonly maxLineLength = Infinity,
    private readonly tooLong: 'throw' | 'cut' = 'throw',
  ) {}

  /** Feeds one chunk and returns the lines it completed. */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    if (this.skipping) {
      if (newline === -1) return lines;
      this.skipping = false;
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    while (newline !== -1) {
      if (this.pending + newline - start > this.maxLineLength) {
        this.overflow(lines, chunk.subarray(start, newline));
      } else if (this.pending === 0) {
        this.emit(lines, chunk, start, newline);
      } else {
        this.pieces.push(chunk.subarray(start, newline));
        this.emit(lines, this.takePieces(), 0, undefined);
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      if (this.pending + chunk.length - start > this.maxLineLength) {
        this.overflow(lines, chunk.subarray(start));
        this.skipping = true;
        return lines;
      }
      // Copied (Buffer's own slice would not): the rest waits for a later chunk, and must not pin this one.
      this.pieces.push(Uint8Array.prototype.slice.call(chunk, start));
      this.pending += chunk.length - start;
    }
    return lines;
  }

  /** A line past the limit: thrown, or its head emitted (`tail` is the part of it in this chunk). */
  private overflow(lines: string[], tail: Uint8Array): void {
    if (this.tooLong === 'throw') throw new LineTooLongError(this.maxLineLength);
    this.pieces.push(tail.subarray(0, this.maxLineLength - this.pending));
    this.emit(lines, this.takePieces(), 0, undefined);
  }

  /** Ends the stream: returns the last line if it had no newline. */
  end(): string[] {
    const lines: string[] = [];
    if (this.pending > 0) this.emit(lines, this.takePieces(), 0, undefined);
    this.skipping = false;
    return lines;
  }

  private takePieces(): Uint8Array {
    const { pieces } = this;
    this.pieces = [];
    this.pending = 0;
    if (pieces.length === 1) return pieces[0] as Uint8Array;
    const whole = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    let at = 0;
    for (const piece of pieces) {
      whole.set(piece, at);
      at += piece.length;
    }
    return whole;
  }

  // Decodes bytes [start, end) as one line, without a trailing CR; skips an empty one.
  private emit(lines: string[], bytes: Uint8Array, start: number, end = bytes.length): void {
    if (end > start && bytes[end - 1] === CARRIAGE_RETURN) end--;
    if (end === start) return;
    lines.push(isBuffer(bytes) ? (bytes as unknown as NodeBytes).toString('utf8', start, end) : this.decoder.decode(bytes.subarray(start, end)));
  }
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

// Node's Buffer, where there is one; the root entry also runs in browsers.
const NodeBuffer = (globalThis as { Buffer?: { isBuffer(value: unknown): boolean } }).Buffer;

interface NodeBytes {
  toString(encoding: 'utf8', start: number, end: number): string;
}

function isBuffer(bytes: Uint8Array): boolean {
  return NodeBuffer !== undefined && NodeBuffer.isBuffer(bytes);
}

/** A line longer than the framer's limit: the stream cannot be trusted to carry messages any more. */
export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
  constructor(readonly limit: number) {
    super(`a line longer than ${limit} bytes`);
  }
}
