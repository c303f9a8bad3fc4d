import { resolveLocalRef } from '../../util/schema-refs.js';
import { isObject } from '../../util/values.js';

// Gemini unrolls a recursive reference "to a limited degree": a type that
// must contain itself (through required properties, array items, or every
// branch of a union) can never end, so it refuses one. A cycle that passes
// through an optional property ends wherever the model leaves it out.

/**
 * Whether some reference of `refs`, followed from its target through
 * required properties, items and union branches (walked iteratively), comes
 * back to itself.
 */
export function hasRequiredCycle(root: Record<string, unknown>, refs: Iterable<string>): boolean {
  for (const start of refs) {
    const queue = mandatoryRefs(resolveLocalRef(root, start));
    const visited = new Set<string>();
    while (queue.length > 0) {
      const ref = queue.shift() as string;
      if (ref === start) return true;
      if (visited.has(ref)) continue;
      visited.add(ref);
      queue.push(...mandatoryRefs(resolveLocalRef(root, ref)));
    }
  }
  return false;
}

// The references a value of `schema` must pass through (or might, for a union).
function mandatoryRefs(schema: unknown): string[] {
  const found: string[] = [];
  const stack: unknown[] = [schema];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    if (typeof node.$ref === 'string') found.push(node.$ref);
    const required = Array.isArray(node.required) ? node.required : [];
    if (isObject(node.properties)) for (const name of Object.keys(node.properties)) if (required.includes(name)) stack.push(node.properties[name]);
    stack.push(node.items, node.additionalProperties);
    for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      const list = node[keyword];
      if (Array.isArray(list)) stack.push(...list);
    }
  }
  return found;
}
