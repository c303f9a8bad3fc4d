// The words a tool search reads, from a tool's name, title, description and
// parameters, and from a query. Both sides go through the same steps, so a
// step only has to be consistent, not linguistically right: split words at
// case changes and punctuation (`readFile`, `read_file`, `read-file` and
// `read file` are the same two words), fold case, drop a few words that say
// nothing about a tool, and trim common English endings (`files`, `listing`,
// `listed` meet `file` and `list`).

/** The longest word kept; a longer run of letters is cut (nobody searches for one). */
const MAX_WORD_CHARS = 32;

// Words that appear in nearly every description or request and tell no tool from another.
const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'for', 'from', 'has', 'have', 'how', 'i', 'if', 'in', 'into',
  'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'please', 'so', 'that', 'the', 'this', 'to', 'use', 'want', 'was', 'we',
  'what', 'when', 'which', 'will', 'with', 'you', 'your',
]);

// A word: letters and digits of any script, split where the case changes
// (`readFile` -> `read`, `File`; `HTTPRequest` -> `HTTP`, `Request`), so
// punctuation, `_` and spaces part words too.
const WORD = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{N}]+|\p{Lu}+\p{N}*|[\p{L}\p{N}]+/gu;

/**
 * The search terms of a text, in order, repeats kept: at most `maxChars`
 * characters of it are read and at most `maxTerms` terms come back, so the
 * cost is bounded whatever the text's size.
 */
export function searchTerms(text: string, maxChars: number, maxTerms: number): string[] {
  const terms: string[] = [];
  if (maxChars <= 0 || maxTerms <= 0) return terms;
  const read = text.length > maxChars ? text.slice(0, maxChars) : text;
  const words = new RegExp(WORD);
  for (let match = words.exec(read); match !== null; match = words.exec(read)) {
    const word = match[0].toLowerCase().slice(0, MAX_WORD_CHARS);
    if (STOP_WORDS.has(word)) continue;
    const term = stem(word);
    if (term.length < 2) continue;
    terms.push(term);
    if (terms.length >= maxTerms) break;
  }
  return terms;
}

// A light suffix trim (after the first step of Porter's stemmer, much
// simplified): plurals, then -ing and -ed, then a final -e, so that `create`,
// `creates`, `created` and `creating` all become `creat`, and `creation` too.
function stem(word: string): string {
  if (word.length <= 3 || /\p{N}$/u.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ch|sh|x)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ation') && w.length > 7) w = w.slice(0, -3);
  else if (w.endsWith('ing') && HAS_VOWEL.test(w.slice(0, -3)) && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && HAS_VOWEL.test(w.slice(0, -2)) && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  return w;
}

const HAS_VOWEL = /[aeiouy]/;

// `running` -> `run`, `mapped` -> `map`; `fill`, `pass` stay.
function undouble(word: string): string {
  const last = word.charAt(word.length - 1);
  return word.length > 2 && last === word.charAt(word.length - 2) && !'lsz'.includes(last) ? word.slice(0, -1) : word;
}
