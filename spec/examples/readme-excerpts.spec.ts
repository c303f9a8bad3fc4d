import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The README's code is cut from examples/, which examples.spec.ts runs: every
// js or ts block there opens with a line `// examples/FILE` naming the file
// it comes from, and its lines are that file's, in order, with their leading
// indentation free; a line `// …` stands for lines left out. So the front
// page cannot show code that does not run.

const root = join(__dirname, '..', '..');
const CODE_BLOCK = /^```(js|javascript|mjs|ts|typescript)\n([\s\S]*?)^```$/gm;
const SOURCE = /^\/\/ (examples\/\S+)$/;
const ELISION = '// …';

interface Excerpt {
  /** The block's first line in README.md, counted from 1. */
  line: number;
  source: string | undefined;
  lines: string[];
}

function excerptsOf(markdown: string): Excerpt[] {
  return [...markdown.matchAll(CODE_BLOCK)].map((match) => {
    const [first = '', ...rest] = (match[2] ?? '').replace(/\n$/, '').split('\n');
    const source = SOURCE.exec(first)?.[1];
    return { line: markdown.slice(0, match.index).split('\n').length, source, lines: source === undefined ? [first, ...rest] : rest };
  });
}

/** The excerpt's lines that are not in `file` where they should be, in order after the ones before them; none when it matches. */
function drift(lines: string[], file: string): string[] {
  const source = file.split('\n').map((line) => line.trim());
  const missing: string[] = [];
  let at = 0;
  let contiguous = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === ELISION) {
      contiguous = false;
      continue;
    }
    const found = contiguous ? (source[at] === line ? at : -1) : source.indexOf(line, at);
    if (found < 0) {
      missing.push(raw);
      contiguous = false;
      continue;
    }
    at = found + 1;
    contiguous = true;
  }
  return missing;
}

describe('the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const excerpts = excerptsOf(readme);

  it('has code, and every js or ts block names the example it is cut from', () => {
    expect(excerpts.length).toBeGreaterThanOrEqual(3);
    expect(excerpts.filter((excerpt) => excerpt.source === undefined).map((excerpt) => `README.md:${excerpt.line}`)).toEqual([]);
  });

  it('shows only lines its examples hold, in their order', () => {
    const drifted = excerpts.flatMap(({ line, source = '', lines }) => {
      const path = join(root, source);
      if (!existsSync(path)) return [`README.md:${line}: ${source} does not exist`];
      return drift(lines, readFileSync(path, 'utf8')).map((missing) => `README.md:${line}: not in ${source}: ${missing.trim()}`);
    });
    expect(drifted).toEqual([]);
  });

  it('is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe('the excerpt check', () => {
  const file = 'const a = 1;\nif (a) {\n  call(a);\n}\nconst b = 2;\n';

  it('takes lines at another indentation, and `// …` for lines left out', () => {
    expect(drift(['if (a) {', 'call(a);'], file)).toEqual([]);
    expect(drift(['const a = 1;', '// …', 'const b = 2;'], file)).toEqual([]);
  });

  it('names a line the file lacks, a line out of order, and lines apart without `// …` between them', () => {
    expect(drift(['call(a, b);'], file)).toEqual(['call(a, b);']);
    expect(drift(['const b = 2;', 'const a = 1;'], file)).toEqual(['const a = 1;']);
    expect(drift(['const a = 1;', 'const b = 2;'], file)).toEqual(['const b = 2;']);
  });

  it('reads the source file a block names, and a block that names none', () => {
    const markdown = '# T\n\n```ts\n// examples/x.mjs\nconst a = 1;\n```\n\n```js\nconst c = 3;\n```\n\n```sh\nnpm test\n```\n';
    expect(excerptsOf(markdown)).toEqual([
      { line: 3, source: 'examples/x.mjs', lines: ['const a = 1;'] },
      { line: 8, source: undefined, lines: ['const c = 3;'] },
    ]);
  });
});
