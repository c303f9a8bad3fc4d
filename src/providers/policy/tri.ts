/** A three-valued answer: a predicate that cannot read its input says `unknown`. */
export type Tri = 'yes' | 'no' | 'unknown';

/** All of them: `no` if any is, else `unknown` if any is, else `yes`. */
export function all(values: Iterable<Tri>): Tri {
  let result: Tri = 'yes';
  for (const value of values) {
    if (value === 'no') return 'no';
    if (value === 'unknown') result = 'unknown';
  }
  return result;
}

/** Any of them: `yes` if any is, else `unknown` if any is, else `no` (and `no` for none). */
export function any(values: Iterable<Tri>): Tri {
  let result: Tri = 'no';
  for (const value of values) {
    if (value === 'yes') return 'yes';
    if (value === 'unknown') result = 'unknown';
  }
  return result;
}
