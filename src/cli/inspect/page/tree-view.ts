import { element } from './element.js';

/** The most values one tree shows; the rest are counted, not built. */
export const TREE_MAX_NODES = 2_000;
/** The deepest level shown: below it, a note says how the value goes on. */
export const TREE_MAX_DEPTH = 64;
/** The most characters of one string shown. */
const STRING_MAX_CHARS = 2_000;

interface Pending {
  key: string | undefined;
  value: unknown;
  parent: HTMLElement;
  depth: number;
}

/**
 * A JSON value as a tree a person can fold: each object and array a
 * `<details>` (the first two levels open), each other value a line. Walked
 * with a queue of its own, not by recursion, so a value nested 100,000
 * levels deep costs no stack; at most `TREE_MAX_NODES` values and
 * `TREE_MAX_DEPTH` levels are built, and a note says what was left out.
 * Keys and strings are text.
 */
export function treeView(value: unknown): HTMLElement {
  const root = element('div');
  root.className = 'tree';
  const stack: Pending[] = [{ key: undefined, value, parent: root, depth: 0 }];
  let built = 0;
  while (stack.length > 0) {
    const { key, value: item, parent, depth } = stack.pop() as Pending;
    built += 1;
    const label = key === undefined ? '' : `${key}: `;
    if (typeof item !== 'object' || item === null) {
      parent.append(leaf(label, item));
      continue;
    }
    const entries: Array<[string, unknown]> = Array.isArray(item) ? [] : Object.entries(item);
    const count = Array.isArray(item) ? item.length : entries.length;
    const summary = Array.isArray(item) ? `[${count} item${count === 1 ? '' : 's'}]` : `{${count} key${count === 1 ? '' : 's'}}`;
    if (count === 0) {
      parent.append(leaf(label, Array.isArray(item) ? [] : {}));
      continue;
    }
    if (depth >= TREE_MAX_DEPTH) {
      parent.append(note(`${label}${summary} … deeper than ${TREE_MAX_DEPTH} levels: not shown`));
      continue;
    }
    const details = element('details');
    details.open = depth < 2;
    details.append(element('summary', `${label}${summary}`));
    const children = element('div');
    details.append(children);
    parent.append(details);
    // Never more children than the values left to build.
    const room = Math.max(0, TREE_MAX_NODES - built - stack.length);
    const shown = Math.min(count, room);
    if (shown < count) children.append(note(`the first ${shown.toLocaleString('en')} of ${count.toLocaleString('en')} (the page shows ${TREE_MAX_NODES.toLocaleString('en')} values in all)`));
    // Pushed in reverse, so they come off in order.
    for (let i = shown - 1; i >= 0; i--) {
      const [childKey, child] = Array.isArray(item) ? [String(i), item[i]] : (entries[i] as [string, unknown]);
      stack.push({ key: childKey, value: child, parent: children, depth: depth + 1 });
    }
  }
  return root;
}

function leaf(label: string, value: unknown): HTMLElement {
  const line = element('div', label);
  line.className = 'leaf';
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value.length > STRING_MAX_CHARS ? value.slice(0, STRING_MAX_CHARS) : value) + (value.length > STRING_MAX_CHARS ? ` … (${value.length.toLocaleString('en')} characters)` : '');
  else if (Array.isArray(value)) text = '[]';
  else if (typeof value === 'object' && value !== null) text = '{}';
  else text = value === undefined ? 'undefined' : String(value);
  const shown = element('span', text);
  shown.className = typeof value === 'string' ? 'string' : 'scalar';
  line.append(shown);
  return line;
}

function note(text: string): HTMLElement {
  const shown = element('div', text);
  shown.className = 'note';
  return shown;
}
