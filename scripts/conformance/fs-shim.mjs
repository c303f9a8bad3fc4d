// `node:fs` plus the `globSync` Node 22 added, for running the conformance
// suite on Node 20. Only `*` and `**` patterns are understood, which is all
// the suite asks for.
import * as fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

/**
 * The paths under `cwd` (relative to it, `/`-separated) that match `pattern`.
 * `**` matches any number of directories, `*` anything within one name.
 */
export function globSync(pattern, { cwd = process.cwd() } = {}) {
  const segments = pattern.split('/').filter((segment) => segment !== '');
  const found = [];
  walk(cwd, '', segments, found);
  return [...new Set(found)].sort();
}

function walk(directory, prefix, segments, found) {
  if (segments.length === 0) {
    if (prefix !== '') found.push(prefix.slice(0, -1));
    return;
  }
  const [head, ...rest] = segments;
  if (head === '**') {
    // Zero directories, then one more and `**` again; at the end it matches everything below.
    walk(directory, prefix, rest, found);
    for (const entry of entries(directory)) {
      if (rest.length === 0) found.push(`${prefix}${entry.name}`);
      if (entry.isDirectory()) walk(path.join(directory, entry.name), `${prefix}${entry.name}/`, segments, found);
    }
    return;
  }
  const matches = segmentMatcher(head);
  for (const entry of entries(directory)) {
    if (!matches(entry.name)) continue;
    if (rest.length === 0) found.push(`${prefix}${entry.name}`);
    else if (entry.isDirectory()) walk(path.join(directory, entry.name), `${prefix}${entry.name}/`, rest, found);
  }
}

function entries(directory) {
  try {
    return fs.readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
}

function segmentMatcher(segment) {
  const source = segment
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  const expression = new RegExp(`^${source}$`);
  return (name) => expression.test(name);
}
