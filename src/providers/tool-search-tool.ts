import type { LlmTool } from '../tools/bridge.js';
import type { ToolAnnotations } from '../protocol/types.js';

/** The most tools one call of the search tool finds (and loads). */
export const MAX_FOUND = 20;

// What one found tool's line may take: a search answer is read every turn after.
const MAX_DESCRIPTION_CHARS = 300;
const MAX_PARAMETERS_SHOWN = 12;

/** What `ToolSearch` says of its search tool: it reads, and only the catalogue. */
export const SEARCH_ANNOTATIONS = Object.freeze({
  title: 'Search tools',
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}) satisfies ToolAnnotations;

// The same words whatever the catalogue holds, so that the declarations
// stay the same turn after turn (a vendor's prompt cache keeps them).
const DESCRIPTION =
  'Finds tools by what they do. Only a few tools are shown to you at first; many more are available. ' +
  'Describe the action you need in a few words (for example "create a GitHub issue" or "take a screenshot of the page"). ' +
  'The tools found are loaded: call them by name in your next step. Search again whenever no tool you have fits.';

const declarations = new Map<string, LlmTool>();

/** The search tool's declaration under a name, one object per name. */
export function searchDeclaration(name: string): LlmTool {
  let declaration = declarations.get(name);
  if (!declaration) {
    declaration = {
      type: 'function',
      function: {
        name,
        description: DESCRIPTION,
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'What the tool should do, in a few words.' },
            limit: { type: 'integer', minimum: 1, maximum: MAX_FOUND, description: 'How many tools to find (default 5).' },
          },
          required: ['query'],
        },
      },
    };
    declarations.set(name, declaration);
  }
  return declaration;
}

/**
 * The text a search answers with: each tool found, under the name the model
 * calls it by, with its description (cut) and its parameters with their
 * types (`?` marks an optional one): enough to call it for a model whose
 * host never lists the tools again (a host of `rxmcp serve --tool-search`).
 */
export function searchAnswer(query: string, found: readonly LlmTool[]): string {
  if (found.length === 0) {
    return `No tool matched ${JSON.stringify(query.slice(0, 200))}. Try other words: the service, the object or the action (for example "issue", "file", "browser").`;
  }
  const lines = found.map(({ function: fn }) => {
    const description = oneLine(fn.description ?? '');
    const cut = description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : description;
    return `- ${oneLine(fn.name)}(${parameterSummary(fn.parameters)})${cut ? `: ${cut}` : ''}`;
  });
  return [`${found.length === 1 ? 'One tool' : `${found.length} tools`} found and loaded; call ${found.length === 1 ? 'it' : 'them'} by name:`, ...lines].join('\n');
}

function parameterSummary(parameters: Record<string, unknown>): string {
  const properties = parameters?.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return '';
  const required = new Set(Array.isArray(parameters.required) ? parameters.required.filter((key): key is string => typeof key === 'string') : []);
  const names: string[] = [];
  let more = 0;
  for (const key in properties) {
    if (!Object.prototype.hasOwnProperty.call(properties, key)) continue;
    if (names.length >= MAX_PARAMETERS_SHOWN) {
      // Counted only so far: a schema is the server's, of any size.
      if (++more >= 1000) break;
      continue;
    }
    const type = typeOf(properties[key as keyof typeof properties]);
    names.push(`${oneLine(key.slice(0, 64))}${required.has(key) ? '' : '?'}${type ? `: ${type}` : ''}`);
  }
  return more > 0 ? `${names.join(', ')}, … ${more >= 1000 ? 'many' : more} more` : names.join(', ');
}

// A property's JSON Schema type in a few characters (`string`, `number|null`,
// `string[]`), or '' when it names none. The schema is the server's: only
// plain words count, so no type can break the answer's lines.
function typeOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const { type, items } = schema as { type?: unknown; items?: unknown };
  const word = typeWords(type);
  if (word !== 'array' || typeof items !== 'object' || items === null) return word;
  const inner = typeWords((items as { type?: unknown }).type);
  return inner && !inner.includes('|') ? `${inner}[]` : word;
}

const TYPE_WORD = /^[A-Za-z]{1,16}$/;

function typeWords(type: unknown): string {
  const named = typeof type === 'string' ? [type] : Array.isArray(type) ? type.slice(0, 4) : [];
  return named.filter((one): one is string => typeof one === 'string' && TYPE_WORD.test(one)).join('|');
}

// A server's text on one line of the answer: every run of white space and
// control characters (line and paragraph separators and NEL among them)
// becomes one space, so no tool's name, parameter or description can start
// a line of its own and pass it off as another tool's.
function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
