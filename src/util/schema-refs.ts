import { isObject } from './values.js';

// A pointer longer than this names no definition a real schema has.
const MAX_POINTER_SEGMENTS = 32;

/**
 * The schema a local `$ref` points at inside `root` (`#`, `#/$defs/Name`,
 * `#/definitions/Name` or any other JSON pointer into the document), or
 * `undefined` for a reference that leaves the document (a URL, a relative
 * path): those are never fetched. Only own members are followed, so a
 * pointer through `__proto__` or `constructor` finds nothing.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  const segments = ref.slice(2).split('/');
  if (segments.length > MAX_POINTER_SEGMENTS) return undefined;
  let node: unknown = root;
  for (const raw of segments) {
    const segment = decodeSegment(raw);
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(segment)) node = node[Number(segment)];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

function decodeSegment(raw: string): string {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // A lone '%' is a literal character of the name.
  }
  return text.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Sets a member as an own data property, so a key such as `__proto__` never reaches a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
