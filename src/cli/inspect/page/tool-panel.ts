import { type Observable, Subscription } from 'rxjs';
import type { McpClient, Tool } from 'rxmcp';
import { appResourceUri } from 'rxmcp/apps';
import { byId, element } from './element.js';
import { errorView, resultView } from './result-view.js';
import { schemaForm } from './schema-form.js';
import { taskSummary } from './task-summary.js';
import { taskToggle } from './task-toggle.js';

/** What the catalogue tells the tool panel. */
export interface ToolPanelOptions {
  /** The tools, listed again as they change; `mcp.listTools()` once when absent. */
  tools?: Observable<Tool[]>;
  /** The server runs tool calls as tasks: a tool that may run as one gets a "run as a task" checkbox. */
  tasks?: boolean;
  /** Told the number of tools at each listing. */
  onCount?(count: number): void;
}
import { showView } from './view-panel.js';

/**
 * Shows `mcp`'s tools in the Tools list, each a button that opens its call
 * form in the Call panel. Calling shows the result as it is (see
 * `resultView`), or the failure with its code and data; Cancel
 * unsubscribes, which cancels the call on the server. A call run as a task
 * (see `taskToggle`) shows each status of its task as it comes.
 *
 * @returns the subscription of the listing and of any running call: unsubscribing drops them both
 */
export function showTools(mcp: McpClient, onError: (error: Error) => void, options: ToolPanelOptions = {}): Subscription {
  let running: Subscription | undefined;
  const listing = new Subscription();
  listing.add((options.tools ?? mcp.listTools()).subscribe({
    next: (tools) => {
      options.onCount?.(tools.length);
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
      );
    },
    error: onError,
  }));
  // Not on the listing's own subscription, which ends when the list arrives: a running call or view goes with the connection.
  listing.add(() => running?.unsubscribe());
  return listing;

  function showCall(tool: Tool): void {
    const [form, read, validate] = schemaForm(tool.inputSchema, { rawJson: true });
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
    const asTask = taskToggle(tool, options.tasks === true);
    byId('call').replaceChildren(element('h2', tool.name), element('p', tool.description ?? ''), form, ...(asTask.view ? [asTask.view] : []), actions, status, output);
    call.onclick = () => {
      if (validate() !== undefined) return;
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
            output.replaceChildren(...resultView(result, tool));
          },
          onError: (text) => (status.textContent = text),
        });
        running.add(() => (cancel.disabled = true));
        return;
      }
      if (asTask.chosen()) {
        running = mcp.callToolAsTask(tool.name, read(), { timeoutMs: 0 }).subscribe({
          next: (event) => {
            status.textContent = event.task ? `task ${event.task.taskId}: ${taskSummary(event.task)}` : 'done (answered directly)';
            if (event.kind === 'result') output.replaceChildren(...resultView(event.result, tool));
          },
          error: (error: Error) => (status.textContent = `failed: ${error.message}`),
        });
        running.add(() => (cancel.disabled = true));
        return;
      }
      const subscription = mcp.callTool(tool.name, read(), { timeoutMs: 0 }).subscribe({
        next: (result) => {
          status.textContent = result.isError ? 'the tool reported an error' : 'done';
          output.replaceChildren(...resultView(result, tool));
        },
        error: (error: Error) => {
          status.textContent = `failed: ${error.message}`;
          output.replaceChildren(errorView(error));
        },
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
