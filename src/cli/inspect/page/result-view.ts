import type { CallToolResult, Tool } from 'rxmcp';
import { type Checker, compileOutputSchema, loadValidator } from '../../../tools/output-check.js';
import { contentBlocksView } from './content-view.js';
import { element } from './element.js';
import { jsonText } from './json-text.js';
import { treeView } from './tree-view.js';

// The page's client does not check results against their outputSchema (it
// would withhold a result that breaks it); the page checks here, with the
// same validator and bounds, and shows the result and the verdict together.
const checkers = new WeakMap<Tool, Promise<Checker | string>>();

/**
 * A tool result as it is: its content blocks (shown as an error, with a
 * heading saying so, when `isError`), its `structuredContent` as a tree, and
 * whether that matches the tool's `outputSchema` ("matches outputSchema",
 * or the first problem, or why it could not be checked).
 */
export function resultView(result: CallToolResult, tool?: Tool): HTMLElement[] {
  const shown: HTMLElement[] = [];
  const content = contentBlocksView(Array.isArray(result.content) ? result.content : []);
  if (result.isError === true) {
    const box = element('div');
    box.className = 'tool-error';
    box.append(element('strong', 'The tool reported an error (isError):'), content);
    shown.push(box);
  } else shown.push(content);
  const structured = element('div');
  structured.className = 'structured';
  if (result.structuredContent !== undefined) structured.append(element('h3', 'structuredContent'), treeView(result.structuredContent));
  if (tool?.outputSchema !== undefined && result.isError !== true) structured.append(verdictView(result, tool));
  if (structured.childElementCount > 0) shown.push(structured);
  return shown;
}

/**
 * A failed call as the page shows it: the error's class, its code (the
 * JSON-RPC code of an error the server answered, or rxmcp's own), its
 * message, and its `data` as JSON text (bounded), when it has any.
 */
export function errorView(error: Error): HTMLElement {
  const box = element('div');
  box.className = 'call-error';
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  box.append(element('strong', `${error.name}${code === undefined ? '' : ` (code ${typeof code === 'number' ? code : JSON.stringify(code)})`}`), element('p', error.message.slice(0, 10_000)));
  if (data !== undefined) {
    box.append(element('small', 'data'));
    const pre = element('pre', jsonText(data, 10_000));
    pre.className = 'json';
    box.append(pre);
  }
  return box;
}

function verdictView(result: CallToolResult, tool: Tool): HTMLElement {
  const verdict = element('p', 'checking against outputSchema…');
  verdict.className = 'schema-verdict';
  const say = (kind: 'match' | 'mismatch' | 'unchecked', text: string): void => {
    verdict.dataset.verdict = kind;
    verdict.textContent = text;
  };
  if (result.structuredContent === undefined) {
    say('mismatch', 'The tool declares an outputSchema but returned no structuredContent.');
    return verdict;
  }
  let checker = checkers.get(tool);
  if (!checker) {
    checker = loadValidator().then(
      (library) => compileOutputSchema(library, tool.outputSchema),
      (error: unknown) => `the validator could not be loaded: ${String(error)}`,
    );
    checkers.set(tool, checker);
  }
  void checker
    .then((check) => {
      if (typeof check === 'string') return say('unchecked', `Not checked against outputSchema: ${check}`);
      const found = check(result.structuredContent);
      if (found === undefined) say('match', 'matches outputSchema');
      else if (found.problem === 'mismatch') say('mismatch', `Does not match outputSchema: ${found.violation}`);
      else say('unchecked', `Not checked against outputSchema: ${found.violation}`);
    })
    .catch((error: unknown) => say('unchecked', `Not checked against outputSchema: ${String(error)}`));
  return verdict;
}
