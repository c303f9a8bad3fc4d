import { quoteName } from '../errors/config-errors.js';

/**
 * ` (did you mean "env"?)` when a known key is close to `key` (the same but
 * for case, `_` and `-`, or one or two edits away for a key of five letters
 * or more), else ''. A typo such as `"enviroment"` then says what it missed.
 */
export function keyHint(key: string, known: Iterable<string>): string {
  const folded = fold(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (fold(candidate) === folded) return ` (did you mean ${quoteName(candidate)}?)`;
    // Names from a hostile file may be long: compare only what could be close.
    if (Math.abs(candidate.length - key.length) > 2 || key.length > 64) continue;
    const distance = editDistance(folded, fold(candidate));
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  const allowed = key.length >= 8 ? 3 : key.length >= 5 ? 2 : 1;
  return best !== undefined && bestDistance <= allowed ? ` (did you mean ${quoteName(best)}?)` : '';
}

function fold(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

// Levenshtein distance, two rows at a time.
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, n) => n);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
