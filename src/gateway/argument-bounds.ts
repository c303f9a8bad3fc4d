/** The most values (objects, arrays and scalars) the arguments of one call may hold. */
export const MAX_ARGUMENT_VALUES = 100_000;
/** The deepest nesting the arguments of one call may have. */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Why a downstream host's arguments are refused, or `undefined` when they
 * are within bounds. Walked with an explicit stack, so hostile nesting
 * cannot exhaust the call stack here; the layers after it (a `Policy` writes
 * arguments out as JSON) never see arguments past the bounds.
 */
export function argumentsTooLarge(args: unknown): string | undefined {
  const stack: Array<[unknown, number]> = [[args, 1]];
  let seen = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (++seen > MAX_ARGUMENT_VALUES) return `The arguments hold more than ${MAX_ARGUMENT_VALUES} values, so the call was refused`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_ARGUMENT_DEPTH) return `The arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels, so the call was refused`;
    for (const inner of Array.isArray(value) ? value : Object.values(value)) stack.push([inner, depth + 1]);
  }
  return undefined;
}
