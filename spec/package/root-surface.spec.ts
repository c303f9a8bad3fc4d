import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The root entry's size, held down. Each number below is a ceiling to
// lower; raise it only for a name the API contract (shared/API.md) puts at
// the root, and say so in the commit: a name that only some users need
// belongs in a subpath (rxmcp/protocol for the wire, rxmcp/node for Node,
// …). When a minor version drops the deprecated re-exports, lower
// ROOT_NAMES to ROOT_NAMES_NOT_DEPRECATED.

/** Every name the root entry exports, deprecated ones included (issue 44 counted 188; 189 when rxmcp/protocol split off; 192 with issue 45's API.md names; 200 with issue 46's ToolSearch, its three types and the vendor tool search formats' four; 204 with its media: ToolMedia, MediaLimits, mediaMessagesForOpenAIChat, OpenAIChatMediaMessage; 212 with issue 47's Pins and its seven types; 216 with its catalogue: MemoryCatalogue, MemoryCatalogueOptions, CatalogueStore, StoredCatalogue; 217 with TracingOptions; 218 with issue 49's ConfigWarning). */
const ROOT_NAMES = 218;

/** The names a user is meant to import from the root: the above less the deprecated re-exports kept for one minor version. */
const ROOT_NAMES_NOT_DEPRECATED = 207;

interface ExportedName {
  name: string;
  deprecated: boolean;
}

/** The names an entry exports, read from its source: it lists every one by name (no `export *`, which would hide how many). */
function exportedNames(entry: string): ExportedName[] {
  const file = join(__dirname, '..', '..', 'src', entry);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: ExportedName[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) throw new Error(`src/${entry}: ${statement.getText()} does not list its names`);
      for (const element of statement.exportClause.elements) {
        names.push({ name: element.name.text, deprecated: ts.getJSDocTags(element).some((tag) => tag.tagName.text === 'deprecated') });
      }
    } else if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
      throw new Error(`src/${entry} declares rather than re-exports: ${statement.getText().slice(0, 80)}`);
    }
  }
  return names;
}

describe('the root entry', () => {
  const names = exportedNames('index.ts');

  it('lists each name once', () => {
    expect(names.filter(({ name }, i) => names.findIndex((other) => other.name === name) !== i)).toEqual([]);
  });

  it(`exports at most ${ROOT_NAMES} names`, () => {
    expect(names.length).toBeLessThanOrEqual(ROOT_NAMES);
  });

  it(`exports at most ${ROOT_NAMES_NOT_DEPRECATED} names that are not deprecated`, () => {
    expect(names.filter(({ deprecated }) => !deprecated).length).toBeLessThanOrEqual(ROOT_NAMES_NOT_DEPRECATED);
  });

  it('deprecates only names that rxmcp/protocol exports, and says so', () => {
    const protocol = new Set(exportedNames('protocol/index.ts').map(({ name }) => name));
    const deprecated = names.filter(({ deprecated }) => deprecated).map(({ name }) => name);
    expect(deprecated.filter((name) => !protocol.has(name))).toEqual([]);
    const notes = readFileSync(join(__dirname, '..', '..', 'src', 'index.ts'), 'utf8').match(/@deprecated Import from 'rxmcp\/protocol'/g) ?? [];
    expect(notes).toHaveLength(deprecated.length);
  });
});
