import { resolveLocalRef } from '../../util/schema-refs.js';
import { isObject } from '../../util/values.js';

/**
 * One pass over a tool's input schema, as the vendor normalisers make it:
 * the document local `$ref`s resolve against, the references being expanded
 * (a reference met again inside its own expansion is a cycle), and the
 * budget that bounds the output, however the references multiply.
 */
export interface SchemaWalk {
  readonly root: Record<string, unknown>;
  readonly expanding: string[];
  /** Schema nodes written so far; past `maxNodes` the walk gives up. */
  nodes: number;
  readonly maxNodes: number;
}

/** A walk over `root` that writes at most `maxNodes` schema nodes. */
export function startWalk(root: Record<string, unknown>, maxNodes: number): SchemaWalk {
  return { root, expanding: [], nodes: 0, maxNodes };
}

/** What a node's `$ref` comes to: the node merged with its target, or why it cannot be. */
export type Expansion = { kind: 'none' } | { kind: 'merged'; ref: string; node: Record<string, unknown> } | { kind: 'cycle' | 'remote' | 'missing'; ref: string };

/**
 * The node with its `$ref` replaced by the schema it names (the node's own
 * keywords win, as 2020-12 reads keywords beside a `$ref`). The caller walks
 * the merged node between `enter` and `leave`, so that a reference met again
 * on the way down is seen as a cycle.
 */
export function expandRef(node: Record<string, unknown>, walk: SchemaWalk): Expansion {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { kind: 'none' };
  if (walk.expanding.includes(ref)) return { kind: 'cycle', ref };
  if (!ref.startsWith('#')) return { kind: 'remote', ref };
  const target = resolveLocalRef(walk.root, ref);
  if (target === true) return { kind: 'merged', ref, node: withoutRef(node) };
  if (!isObject(target)) return { kind: 'missing', ref };
  return { kind: 'merged', ref, node: { ...target, ...withoutRef(node) } };
}

/** The node without its `$ref`. */
export function withoutRef(node: Record<string, unknown>): Record<string, unknown> {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/** Walks `inside` with `ref` marked as being expanded. */
export function within<T>(walk: SchemaWalk, ref: string, inside: () => T): T {
  walk.expanding.push(ref);
  try {
    return inside();
  } finally {
    walk.expanding.pop();
  }
}

/** Counts one more node written; false once the budget is spent. */
export function spend(walk: SchemaWalk): boolean {
  walk.nodes += 1;
  return walk.nodes <= walk.maxNodes;
}

/** A single-member `allOf` (how many generators wrap a `$ref`) merged into its node; other nodes as they are. */
export function unwrapAllOf(node: Record<string, unknown>): Record<string, unknown> {
  const { allOf } = node;
  if (!Array.isArray(allOf) || allOf.length !== 1 || !isObject(allOf[0])) return node;
  const { allOf: _allOf, ...rest } = node;
  return { ...allOf[0], ...rest };
}
