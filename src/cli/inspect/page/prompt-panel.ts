import { type Observable, Subscription } from 'rxjs';
import type { GetPromptResult, McpClient, Prompt } from 'rxmcp';
import { actionButton, actionRow, outcome } from './call-parts.js';
import { catalogueEntry, catalogueList } from './catalogue-list.js';
import { completionField } from './completion-field.js';
import { contentBlocksView } from './content-view.js';
import { byId, element } from './element.js';
import { liveList } from './live-list.js';

/** The most arguments one prompt's form gets, and the most messages a rendered prompt shows. */
export const MAX_ARGUMENTS = 64;
export const MAX_MESSAGES = 200;

/** What the prompt panel needs besides the client. */
export interface PromptPanelOptions {
  /** The server's list changes (see `catalogueChanges`). */
  changes: Observable<string>;
  /** The server declared `completions`. */
  completions: boolean;
  /** Told the number of prompts at each listing. */
  onCount(count: number): void;
}

/**
 * Shows the server's prompts in the Prompts panel, listed again when the
 * server says they changed. Choosing one shows a form of its arguments in
 * the Call panel (required ones marked, each completed by the server when
 * it offers completion); Get renders the prompt and shows its messages,
 * each with its role, through the content view.
 *
 * @returns the listing and the shown prompt's form and request: unsubscribing ends them
 */
export function showPrompts(mcp: McpClient, options: PromptPanelOptions): Subscription {
  const panel = byId('prompts');
  let viewing = new Subscription();
  const listing = liveList(options.changes, 'notifications/prompts/list_changed', (refresh) => mcp.listPrompts({ refresh })).subscribe({
    next: (prompts) => {
      options.onCount(prompts.length);
      panel.replaceChildren(
        catalogueList(prompts, (prompt) => {
          const entry = catalogueEntry(prompt.title ?? prompt.name, [prompt.name], () => showPrompt(prompt));
          entry.dataset.prompt = prompt.name;
          return entry;
        }),
      );
    },
    error: (error: Error) => panel.replaceChildren(element('p', `The prompts could not be listed: ${error.message}`)),
  });
  listing.add(() => viewing.unsubscribe());
  return listing;

  function showPrompt(prompt: Prompt): void {
    viewing.unsubscribe();
    const view = (viewing = new Subscription());
    const form = element('div');
    const inputs = new Map<string, { input: HTMLInputElement; required: boolean }>();
    const values = (except?: string): Record<string, string> =>
      Object.fromEntries([...inputs].filter(([name, { input }]) => name !== except && input.value !== '').map(([name, { input }]) => [name, input.value]));
    for (const argument of (prompt.arguments ?? []).slice(0, MAX_ARGUMENTS)) {
      if (typeof argument.name !== 'string' || inputs.has(argument.name)) continue;
      const required = argument.required === true;
      const field = completionField(mcp, { type: 'ref/prompt', name: prompt.name }, argument.name, options.completions, () => values(argument.name));
      field.input.id = `argument-${inputs.size}`;
      field.input.required = required;
      if (typeof argument.description === 'string') field.input.placeholder = argument.description;
      const label = element('label', argument.name);
      label.htmlFor = field.input.id;
      if (required) label.append(element('span', ' (required)'));
      if (field.completing) view.add(field.completing);
      inputs.set(argument.name, { input: field.input, required });
      form.append(label, field.view);
    }
    const [status, output] = outcome();
    const get = actionButton('Get', 'get');
    byId('call').replaceChildren(element('h2', prompt.title ?? prompt.name), element('p', prompt.description ?? ''), form, actionRow(get), status, output);
    let getting: Subscription | undefined;
    get.onclick = () => {
      const missing = [...inputs].filter(([, { input, required }]) => required && input.value === '').map(([name]) => name);
      if (missing.length > 0) {
        status.textContent = `Required: ${missing.join(', ')}`;
        return;
      }
      getting?.unsubscribe();
      status.textContent = 'getting…';
      output.replaceChildren();
      getting = mcp.getPrompt(prompt.name, values()).subscribe({
        next: (result) => {
          status.textContent = 'done';
          output.replaceChildren(...messagesView(result));
        },
        error: (error: Error) => (status.textContent = `failed: ${error.message}`),
      });
      view.add(getting);
    };
  }
}

/** A rendered prompt: its description, then each message's role and content (at most `MAX_MESSAGES`). */
function messagesView(result: GetPromptResult): HTMLElement[] {
  const shown: HTMLElement[] = [];
  if (typeof result.description === 'string') shown.push(element('p', result.description));
  for (const message of result.messages.slice(0, MAX_MESSAGES)) {
    const item = element('div');
    item.className = 'message';
    item.append(element('strong', String(message.role)), contentBlocksView([message.content]));
    shown.push(item);
  }
  if (result.messages.length > MAX_MESSAGES) shown.push(element('p', `${result.messages.length - MAX_MESSAGES} more messages not shown`));
  return shown;
}
