/**
 * Cuts a byte stream into lines of text.
 *
 * Chunks may split a line, a CRLF pair, or a multi-byte UTF-8 character
 * anywhere; the framer carries the unfinished part over to the next chunk.
 * Lines come out without their `\n` or `\r\n`; empty lines are skipped.
 *
 * A newline byte never occurs inside a UTF-8 character, so the complete
 * lines of a chunk (everything before its last newline) are decoded in one
 * go, under Node with `Buffer`'s decoder and elsewhere with `TextDecoder`,
 * and split in the text. Decoding line by line costs two calls into Node per
 * line (the search and the decode), about 200 ns against 70 for a chunk of
 * small answers; a streaming TextDecoder cost the stdio transport a quarter
 * of its time per message. Only where those lines together could hold one
 * longer than the limit are they cut in the bytes, one by one, so that the
 * limit is always counted in bytes. A framer that cuts long lines (text to
 * show, which its reader may keep) decodes every line on its own.
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
    // A line cut from the chunk's text holds all of that text for as long
    // as it is kept. Messages are parsed and dropped; a reader of lines to
    // show ('cut', stderr) may keep a few of many, so those are decoded one
    // by one, as before.
    if (!this.skipping && this.tooLong === 'throw') {
      const last = chunk.lastIndexOf(NEWLINE);
      // No line before the last newline can be longer than all of them together.
      if (last !== -1 && this.pending + last <= this.maxLineLength) return this.pushWhole(chunk, last);
    }
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
    this.keepRest(lines, chunk, start);
    return lines;
  }

  // The lines up to the chunk's `last` newline, none of which can be too long, decoded in one go.
  private pushWhole(chunk: Uint8Array, last: number): string[] {
    const lines: string[] = [];
    let text: string;
    if (this.pending === 0) {
      text = this.decode(chunk, 0, last);
    } else {
      this.pieces.push(chunk.subarray(0, last));
      const whole = this.takePieces();
      text = this.decode(whole, 0, whole.length);
    }
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      this.take(lines, text, start, newline);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.take(lines, text, start, text.length);
    this.keepRest(lines, chunk, last + 1);
    return lines;
  }

  // Text [start, end) as one line, without a trailing CR; an empty one is skipped.
  private take(lines: string[], text: string, start: number, end: number): void {
    if (end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
    if (end > start) lines.push(text.slice(start, end));
  }

  // What follows the chunk's last newline waits for a later chunk, unless it is too long already.
  private keepRest(lines: string[], chunk: Uint8Array, start: number): void {
    if (start >= chunk.length) return;
    if (this.pending + chunk.length - start > this.maxLineLength) {
      this.overflow(lines, chunk.subarray(start));
      this.skipping = true;
      return;
    }
    // Copied (Buffer's own slice would not): the rest must not pin this chunk.
    this.pieces.push(Uint8Array.prototype.slice.call(chunk, start));
    this.pending += chunk.length - start;
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
    lines.push(this.decode(bytes, start, end));
  }

  private decode(bytes: Uint8Array, start: number, end: number): string {
    return isBuffer(bytes) ? (bytes as unknown as NodeBytes).toString('utf8', start, end) : this.decoder.decode(bytes.subarray(start, end));
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
