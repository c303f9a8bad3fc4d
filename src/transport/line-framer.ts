/**
 * Cuts a byte stream into lines of text.
 *
 * Chunks may split a line, a CRLF pair, or a multi-byte UTF-8 character
 * anywhere; the framer carries the unfinished part over to the next chunk.
 * Lines come out without their `\n` or `\r\n`; empty lines are skipped.
 */
export class LineFramer {
  private readonly decoder = new TextDecoder('utf-8');
  private partial = '';

  /** @param maxLineLength the longest line, in characters, before `push` throws `LineTooLongError`. */
  constructor(private readonly maxLineLength = Infinity) {}

  /** Feeds one chunk and returns the lines it completed. */
  push(chunk: Uint8Array): string[] {
    return this.cut(this.decoder.decode(chunk, { stream: true }));
  }

  /** Ends the stream: returns the last line if it had no newline. */
  end(): string[] {
    const rest = this.partial + this.decoder.decode();
    this.partial = '';
    return emit([], rest);
  }

  private cut(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.partial += text;
      if (this.partial.length > this.maxLineLength) throw new LineTooLongError(this.maxLineLength);
      return lines;
    }
    emit(lines, this.partial + text.slice(0, newline));
    start = newline + 1;
    while ((newline = text.indexOf('\n', start)) !== -1) {
      emit(lines, text.slice(start, newline));
      start = newline + 1;
    }
    this.partial = text.slice(start);
    if (this.partial.length > this.maxLineLength || lines.some((line) => line.length > this.maxLineLength)) {
      throw new LineTooLongError(this.maxLineLength);
    }
    return lines;
  }
}

/** A line longer than the framer's limit: the stream cannot be trusted to carry messages any more. */
export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
  constructor(readonly limit: number) {
    super(`a line longer than ${limit} characters`);
  }
}

function emit(lines: string[], line: string): string[] {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (trimmed.length > 0) lines.push(trimmed);
  return lines;
}
