import type { Word } from './shell-line.js';

/** What an option takes: nothing, a value (attached or the next word), or a value only when attached. */
export type Takes = 0 | 1 | '?';

/** A program's options, getopt-style. */
export interface OptionSpec {
  /** Long names (without `--`) and what each takes; a unique prefix is accepted, as getopt_long does. */
  long: Record<string, Takes>;
  /** Short letters and the option each stands for: a long name, or a name of its own with what it takes. */
  short: Record<string, string | [string, Takes]>;
  /** Whether `-5` (any number) is an option (`nice`). */
  numeric?: boolean;
}

/** One option as given: its name, and its value (`null` when it takes none; `undefined` when the value cannot be read). */
export interface GivenOption {
  name: string;
  value: Word | null;
}

/** A program's leading options, read; the words after them are `rest`. */
export interface ReadOptions {
  options: GivenOption[];
  rest: Word[];
}

/**
 * Reads the options at the head of `words` up to the first operand (or
 * `--`). An option that takes a value consumes it, so a value never passes
 * for an operand.
 *
 * @returns `undefined` when an option is not one the program has, is
 * ambiguous, lacks its value, or a word where options may be is unknown.
 */
export function readOptions(spec: OptionSpec, words: readonly Word[]): ReadOptions | undefined {
  const options: GivenOption[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word === undefined) return undefined;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    if (spec.numeric && /^--?\d+$/.test(word)) {
      options.push({ name: 'adjustment', value: word.replace(/^--?/, '') });
    } else if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = longName(spec, eq === -1 ? word.slice(2) : word.slice(2, eq));
      if (name === undefined) return undefined;
      const takes = spec.long[name] as Takes;
      if (eq !== -1) {
        if (takes === 0) return undefined;
        options.push({ name, value: word.slice(eq + 1) });
      } else if (takes === 1) {
        if (i + 1 >= words.length) return undefined;
        options.push({ name, value: words[++i] as Word });
      } else {
        options.push({ name, value: null });
      }
    } else {
      for (let k = 1; k < word.length; k++) {
        const entry = spec.short[word[k] as string];
        if (entry === undefined) return undefined;
        const [name, takes] = typeof entry === 'string' ? [entry, spec.long[entry] as Takes] : entry;
        if (takes === 0) {
          options.push({ name, value: null });
          continue;
        }
        const attached = word.slice(k + 1);
        if (attached !== '' || takes === '?') {
          options.push({ name, value: attached === '' ? null : attached });
        } else {
          if (i + 1 >= words.length) return undefined;
          options.push({ name, value: words[++i] as Word });
        }
        break;
      }
    }
  }
  return { options, rest: words.slice(i) };
}

// An exact long name, or the one name it is a prefix of.
function longName(spec: OptionSpec, given: string): string | undefined {
  if (given === '' || given.startsWith('-')) return undefined;
  if (Object.hasOwn(spec.long, given)) return given;
  const candidates = Object.keys(spec.long).filter((name) => name.startsWith(given));
  return candidates.length === 1 ? candidates[0] : undefined;
}
