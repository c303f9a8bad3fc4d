import { Subscription } from 'rxjs';
import type { CallToolResult, McpClient, Tool } from 'rxmcp';
import { appResourceUri } from 'rxmcp/apps';
import { contentBlocksView } from './content-view.js';
import { byId, element } from './element.js';
import { schemaForm } from './schema-form.js';
import { showView } from './view-panel.js';

/**
 * Shows `mcp`'s tools in the Tools list, each a button that opens its call
 * form in the Call panel. Calling shows the result (text blocks as text,
 * other blocks by their type, `structuredContent` as JSON); Cancel
 * unsubscribes, which cancels the call on the server.
 *
 * @returns the subscription of the listing and of any running call: unsubscribing drops them both
 */
export function showTools(mcp: McpClient, onError: (error: Error) => void): Subscription {
  let running: Subscription | undefined;
  const listing = new Subscription();
  listing.add(mcp.listTools().subscribe({
    next: (tools) =>
      byId('tools').replaceChildren(
        ...tools.map((tool) => {
          const button = element('button', tool.title ?? tool.name);
          button.type = 'button';
          button.dataset.tool = tool.name;
          if (tool.title !== undefined && tool.title !== tool.name) button.append(element('small', tool.name));
          button.onclick = () => {
            running?.unsubscribe();
            running = undefined;
            document.querySelectorAll('#tools button').forEach((other) => other.classList.remove('chosen'));
            button.classList.add('chosen');
            showCall(tool);
          };
          return button;
        }),
      ),
    error: onError,
  }));
  // Not on the listing's own subscription, which ends when the list arrives: a running call or view goes with the connection.
  listing.add(() => running?.unsubscribe());
  return listing;

  function showCall(tool: Tool): void {
    const [form, read] = schemaForm(tool.inputSchema);
    const status = element('p');
    status.id = 'status';
    const output = element('div');
    output.id = 'result';
    const call = element('button', 'Call');
    call.id = 'run';
    const cancel = element('button', 'Cancel');
    cancel.id = 'cancel';
    cancel.disabled = true;
    const actions = element('div');
    actions.className = 'actions';
    actions.append(call, cancel);
    byId('call').replaceChildren(element('h2', tool.name), element('p', tool.description ?? ''), form, actions, status, output);
    call.onclick = () => {
      running?.unsubscribe();
      output.replaceChildren();
      status.textContent = 'running…';
      cancel.disabled = false;
      // A tool with a UI is called by its view, which shows while the call runs; Cancel closes it.
      if (appResourceUri(tool) !== undefined) {
        status.textContent = 'showing the view…';
        running = showView(mcp, tool.name, read(), {
          onResult: (result) => {
            status.textContent = result.isError ? 'the tool reported an error' : 'done';
            output.replaceChildren(...resultView(result));
          },
          onError: (text) => (status.textContent = text),
        });
        running.add(() => (cancel.disabled = true));
        return;
      }
      const subscription = mcp.callTool(tool.name, read(), { timeoutMs: 0 }).subscribe({
        next: (result) => {
          status.textContent = result.isError ? 'the tool reported an error' : 'done';
          output.replaceChildren(...resultView(result));
        },
        error: (error: Error) => (status.textContent = `failed: ${error.message}`),
      });
      subscription.add(() => (cancel.disabled = true));
      running = subscription;
    };
    // Unsubscribing is the cancellation: the request is aborted, and the server told.
    cancel.onclick = () => {
      running?.unsubscribe();
      status.textContent = 'cancelled';
    };
  }
}

/** A result's blocks as the content view shows them, and its `structuredContent` as JSON. */
function resultView(result: CallToolResult): HTMLElement[] {
  const shown = [contentBlocksView(result.content)];
  if (result.structuredContent !== undefined) shown.push(element('pre', `structuredContent: ${JSON.stringify(result.structuredContent, null, 2)}`));
  return shown;
}
