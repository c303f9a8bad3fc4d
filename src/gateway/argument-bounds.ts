/** The most values (objects, arrays and scalars) the arguments of one call may hold. */
export const MAX_ARGUMENT_VALUES = 100_000;
/** The deepest nesting the arguments of one call may have. */
export const MAX_ARGUMENT_DEPTH = 64;
/** The deepest nesting an upstream answer passed on to a host may have. */
export const MAX_ANSWER_DEPTH = 512;

/**
 * Why a downstream host's arguments are refused, or `undefined` when they
 * are within bounds. Walked with an explicit stack, so hostile nesting
 * cannot exhaust the call stack here; the layers after it (a `Policy` writes
 * arguments out as JSON) never see arguments past the bounds.
 */
export function argumentsTooLarge(args: unknown): string | undefined {
  const found = pastBounds(args, MAX_ARGUMENT_VALUES, MAX_ARGUMENT_DEPTH);
  if (found === 'values') return `The arguments hold more than ${MAX_ARGUMENT_VALUES} values, so the call was refused`;
  if (found === 'depth') return `The arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels, so the call was refused`;
  return undefined;
}

/**
 * Whether an upstream server's answer nests too deep to be written out to a
 * host: the SDK's JSON writer recurses, and a document thousands of levels
 * deep would fail the host's request without an answer.
 */
export function answerTooDeep(answer: unknown): boolean {
  return pastBounds(answer, Infinity, MAX_ANSWER_DEPTH) !== undefined;
}

// Which bound a JSON value passes first, walked iteratively.
function pastBounds(root: unknown, maxValues: number, maxDepth: number): 'values' | 'depth' | undefined {
  const stack: Array<[unknown, number]> = [[root, 1]];
  let seen = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (++seen > maxValues) return 'values';
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth) return 'depth';
    for (const inner of Array.isArray(value) ? value : Object.values(value)) stack.push([inner, depth + 1]);
  }
  return undefined;
}
