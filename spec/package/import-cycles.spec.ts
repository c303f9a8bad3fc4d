import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const src = join(__dirname, '..', '..', 'src');

/** Every relative import and re-export of every source file, types included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        const targets = [...text.matchAll(/^(?:import|export)[^;]*?from\s+'(\.[^']+)'/gms)].map((match) => join(dirname(path), (match[1] as string).replace(/\.js$/, '.ts')));
        graph.set(path, targets);
      }
    }
  };
  walk(src);
  return graph;
}

describe('the source tree', () => {
  it('has no import cycles: each layer depends one way', () => {
    const graph = importGraph();
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), file, next].map((step) => relative(src, step)).join(' -> '));
        else if (!state.has(next)) visit(next, [...path, file]);
      }
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file, []);
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles).toEqual([]);
  });
});
