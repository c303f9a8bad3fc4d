import { isBlockDevice } from './block-device.js';

/**
 * A word of a command as the shell would pass it: its text, or `undefined`
 * when the shell would expand it (a variable, a substitution, a glob, a
 * brace list) to something that cannot be known before it runs.
 */
export type Word = string | undefined;

// Past these a line is unknown rather than walked: the reading must stay
// cheap and bounded whatever a model writes.
const MAX_LINE = 100_000;
const MAX_NESTING = 64;
const MAX_COMMANDS = 1_000;

type FrameKind = 'top' | 'group' | 'substitution' | 'backtick';

interface Frame {
  kind: FrameKind;
  words: Word[];
  word: string;
  started: boolean;
  unknown: boolean;
  inDouble: boolean;
  /** The next word is a redirection's target, not an argument. */
  redirect: boolean;
  /** No word may follow: the command ends after `&>`'s target, as /bin/sh reads it. */
  ended: boolean;
}

const frame = (kind: FrameKind): Frame => ({ kind, words: [], word: '', started: false, unknown: false, inDouble: false, redirect: false, ended: false });

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMETER = /[0-9@*#?$!-]/;

class Unreadable extends Error {}

// Where the physical line holding index `from` ends: its newline, or the end.
function lineEnd(line: string, from: number): number {
  const end = line.indexOf('\n', from);
  return end === -1 ? line.length : end;
}

// Where the arithmetic opened before `from` (by `$((`, `((` or `$[`) closes.
// Bash reads a name there as a variable whose value it evaluates in turn,
// running any `$(…)` in an array subscript: arithmetic holding a name (or
// anything but digits, operators and spaces) cannot be read.
function arithmeticEnd(line: string, from: number, close: string): number {
  const end = close === ']' ? line.indexOf(']', from) : line.indexOf('))', from);
  if (end === -1 || !/^[0-9\s+\-*/%<>=!&|^~?:,()]*$/.test(line.slice(from, end))) throw new Unreadable();
  return end + close.length - 1;
}

/**
 * Splits a shell line into its simple commands, each a list of words, as a
 * POSIX shell would: quotes and backslashes honoured; newlines, `;`, `&`,
 * `&&`, `|`, `||`, `|&`, parentheses and the insides of `$(…)`, backquotes,
 * `<(…)` and `>(…)` all separate commands, and every command found is
 * returned (a substitution's commands as well as the one it sits in).
 * Redirections and their targets are dropped (a line redirected into a disk
 * is unknown); the targets are added to `targets` when it is given. A word holding an expansion
 * (`$VAR`, `${…}`, `$(…)`, an unquoted glob or brace list) is `undefined`.
 *
 * @returns the commands, or `undefined` when the line cannot be read to a
 * conclusion: an open quote, unbalanced parentheses, a here-document, a
 * `${…}` holding anything but a plain parameter, arithmetic on a name, a
 * carriage return but before a newline, or a line past the bounds.
 */
export function parseShellLine(line: string, targets?: Word[]): Word[][] | undefined {
  // A carriage return is a character of a word to a POSIX shell, and nothing
  // to bash with `igncr` (Cygwin, MSYS): read only at a line's end and not
  // after a backslash (a line continuation to the one, not the other).
  if (line.length > MAX_LINE || /\r(?!\n)|\\\r/.test(line)) return undefined;
  try {
    return new LineReader(line, targets).read();
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}

class LineReader {
  private readonly commands: Word[][] = [];
  private readonly stack: Frame[] = [];
  private current = frame('top');
  private globbed = false;
  private braced = false;

  constructor(
    private readonly line: string,
    private readonly targets: Word[] = [],
  ) {}

  read(): Word[][] {
    const { line } = this;
    for (let i = 0; i < line.length; i++) i = this.current.inDouble ? this.inDouble(i) : this.unquoted(i);
    if (this.current.inDouble || this.stack.length > 0) throw new Unreadable();
    this.endCommand();
    return this.commands;
  }

  // Each step reads from `i` and returns the index of the last character it used.
  private inDouble(i: number): number {
    const { line, current } = this;
    const char = line[i] as string;
    if (char === '"') {
      current.inDouble = false;
    } else if (char === '\\') {
      const next = line[i + 1];
      if (next === '\n') return i + 1;
      this.nestedBacktick(next);
      if (next !== undefined && '$`"\\'.includes(next)) {
        current.word += next;
        return i + 1;
      }
      current.word += char;
    } else if (char === '$' && line[i + 1] !== "'" && line[i + 1] !== '"') {
      return this.dollar(i);
    } else if (char === '`') {
      this.open('backtick');
    } else {
      current.word += char;
    }
    return i;
  }

  private unquoted(i: number): number {
    const { line, current } = this;
    const char = line[i] as string;
    const next = line[i + 1];
    switch (char) {
      case "'": {
        const end = line.indexOf("'", i + 1);
        if (end === -1) throw new Unreadable();
        current.word += line.slice(i + 1, end);
        current.started = true;
        return end;
      }
      case '"':
        current.inDouble = true;
        current.started = true;
        return i;
      case '\\':
        if (next === undefined) throw new Unreadable();
        this.nestedBacktick(next);
        if (next !== '\n') {
          current.word += next;
          current.started = true;
        }
        return i + 1;
      case ' ':
      case '\t':
        this.endWord();
        return i;
      case '\r':
        return i;
      case '\n':
      case ';':
      case '|':
        this.endCommand();
        return i;
      case '&':
        if (next === '>') return this.redirection(i);
        this.endCommand();
        return i;
      case '(':
        if (next === '(' && !current.started) return arithmeticEnd(line, i + 2, '))');
        // Inside a word, but for a function's `name()` or an array's `name=(…)`: a
        // pattern to bash (extglob) and zsh, whose glob qualifiers (`*(e:'…':)`) run code.
        if (current.started && !(next === ')' && /^[A-Za-z_][\w-]*$/.test(current.word)) && !/^[A-Za-z_]\w*\+?=$/.test(current.word)) {
          throw new Unreadable();
        }
        this.endCommand();
        this.open('group');
        return i;
      case ')':
        if (current.kind !== 'group' && current.kind !== 'substitution') throw new Unreadable();
        this.close();
        return i;
      case '`':
        if (current.kind === 'backtick') this.close();
        else this.open('backtick');
        return i;
      case '$':
        return this.dollar(i);
      case '<':
      case '>':
        if (next === '(') {
          this.open('substitution');
          return i + 1;
        }
        return this.redirection(i);
      case '#':
        if (current.started) break;
        return lineEnd(line, i) - 1;
      case '*':
      case '?':
      case '[':
        this.globbed = true;
        break;
      case '{':
      case '}':
        this.braced = true;
        break;
    }
    current.word += char;
    current.started = true;
    return i;
  }

  // `$…` in a word: the word becomes unknown; `$(` opens a substitution.
  private dollar(i: number): number {
    const { line, current } = this;
    const next = line[i + 1];
    if (next === '(' && line[i + 2] === '(') {
      this.expanded();
      return arithmeticEnd(line, i + 3, '))');
    }
    if (next === '[') {
      this.expanded();
      return arithmeticEnd(line, i + 2, ']');
    }
    if (next === '(') {
      this.open('substitution');
      return i + 1;
    }
    if (next === '{') {
      const end = line.indexOf('}', i + 2);
      // An indirection (`!`), a subscript, an offset or a prompt expansion (`@P`) is evaluated by bash, running what a variable holds.
      if (end === -1 || /[$`'"(){}\\\n!]|\[(?![@*]\])|:(?![-=?+])|@(?!\]|$)/.test(line.slice(i + 2, end))) throw new Unreadable();
      this.expanded();
      return end;
    }
    if (next === "'") {
      let j = i + 2;
      for (; j < line.length && line[j] !== "'"; j++) if (line[j] === '\\') j++;
      if (j >= line.length) throw new Unreadable();
      this.expanded();
      return j;
    }
    if (next === '"') {
      current.inDouble = true;
      this.expanded();
      return i + 1;
    }
    if (next !== undefined && SPECIAL_PARAMETER.test(next)) {
      this.expanded();
      return i + 1;
    }
    if (next !== undefined && NAME_START.test(next)) {
      let j = i + 1;
      while (j + 1 < line.length && NAME_CHAR.test(line[j + 1] as string)) j++;
      this.expanded();
      return j;
    }
    current.word += '$';
    current.started = true;
    return i;
  }

  private redirection(i: number): number {
    const { line, current } = this;
    if (line.startsWith('<<', i) && !line.startsWith('<<<', i)) throw new Unreadable();
    // A word of digits right before the operator is the file descriptor.
    if (current.started && !current.unknown && /^\d+$/.test(current.word)) {
      current.word = '';
      current.started = false;
    } else {
      this.endWord();
    }
    if (current.redirect) throw new Unreadable();
    const operator = (/^(&>>|&>|<<<|>>|>\||>&|<&|<>|>|<)/.exec(line.slice(i, i + 3))?.[0] ?? line[i]) as string;
    current.redirect = true;
    // Bash reads `&>` as a redirection, /bin/sh as `&` (the command ends) then `>`.
    if (operator.startsWith('&')) current.ended = true;
    return i + operator.length - 1;
  }

  // Inside backquotes the shell takes the backslash off `\``, `\$` and `\\`
  // and reads the text again: what was escaped (a substitution within the
  // substitution, `$x`) is live there.
  private nestedBacktick(next: string | undefined): void {
    if (next !== undefined && '`$\\'.includes(next) && (this.current.kind === 'backtick' || this.stack.some((f) => f.kind === 'backtick'))) throw new Unreadable();
  }

  private expanded(): void {
    this.current.unknown = true;
    this.current.started = true;
  }

  private open(kind: FrameKind): void {
    if (this.stack.length >= MAX_NESTING) throw new Unreadable();
    if (kind !== 'group') this.expanded();
    this.stack.push(this.current);
    this.current = frame(kind);
  }

  private close(): void {
    this.endCommand();
    this.current = this.stack.pop() as Frame;
  }

  // Ends the word being read; a bare `{` or `}` (a group, a function body) ends the command too.
  private endWord(): void {
    const { current } = this;
    const { word } = current;
    const group = current.started && !current.unknown && this.braced && (word === '{' || word === '}');
    if (current.started && !group) {
      const unknown = current.unknown || this.globbed || (this.braced && word !== '{}');
      if (current.redirect) {
        // A redirection is no argument: one into a disk is kept from passing unseen.
        if (isBlockDevice(word)) throw new Unreadable();
        this.targets.push(unknown ? undefined : word);
        current.redirect = false;
      } else if (current.ended) throw new Unreadable();
      else current.words.push(unknown ? undefined : word);
    }
    current.word = '';
    current.started = false;
    current.unknown = false;
    this.globbed = false;
    this.braced = false;
    if (group) this.endCommand();
  }

  private endCommand(): void {
    this.endWord();
    const { current } = this;
    if (current.redirect) throw new Unreadable();
    current.ended = false;
    if (current.words.length === 0) return;
    if (this.commands.length >= MAX_COMMANDS) throw new Unreadable();
    this.commands.push(current.words);
    current.words = [];
  }
}
