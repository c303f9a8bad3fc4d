// A tool with a UI, shown as its view: renderApp mounts the server's view in
// the sandbox (on the demo's second origin) and sizes its frame as the view
// asks, within the host context's bounds; this file binds the rest of what
// the view asks for to the page: fullscreen, messages into the conversation,
// links, logs, and the tool calls it makes.
import { BehaviorSubject, type Subscription } from 'rxjs';
import type { McpClient, ToolProvider } from 'rxmcp';
import { type AppEvent, renderApp } from 'rxmcp/apps';
import { type DisplayMode, hostContext$, OFFERED_MODES } from './host-context.js';

/** Where the view goes, and what the page shows around it. */
export interface ViewPanel {
  /** Empty; the view (and its bar) are put here. */
  container: HTMLElement;
  /** Shows the tool's result as text. */
  showResult(text: string, isError: boolean): void;
  /** Adds a line to the page's conversation. */
  say(who: string, text: string): void;
  /** Adds a line with a link the user may follow (an http(s) URL). */
  sayLink(who: string, url: string): void;
  /** Adds a line to the page's log. */
  log(line: string): void;
}

const text = (content: ReadonlyArray<{ type: string; text?: string }> | undefined): string =>
  (content ?? []).map((block) => (block.type === 'text' ? (block.text ?? '') : `[${block.type}]`)).join('\n');

/**
 * Calls `tool` and shows its view in `panel.container` until the returned
 * subscription ends (which tears the view down and cancels the call if it is
 * still running). The view's own tool calls go through `provider` (a Policy,
 * say) when given, else straight to `client`.
 */
export function showView(options: {
  client: McpClient;
  provider: ToolProvider | undefined;
  tool: string;
  arguments: Record<string, unknown>;
  sandboxUrl: string;
  panel: ViewPanel;
}): Subscription {
  const { panel } = options;
  const bar = document.createElement('div');
  bar.className = 'view-bar';
  const label = document.createElement('span');
  label.textContent = `view of ${options.tool}`;
  const exit = document.createElement('button');
  exit.id = 'exit-fullscreen';
  exit.textContent = 'Exit fullscreen';
  exit.hidden = true;
  bar.append(label, exit);
  const frame = document.createElement('div');
  frame.className = 'view-frame';
  panel.container.replaceChildren(bar, frame);

  const mode$ = new BehaviorSubject<DisplayMode>('inline');
  const apply = (mode: DisplayMode) => {
    panel.container.classList.toggle('fullscreen', mode === 'fullscreen');
    exit.hidden = mode !== 'fullscreen';
    if (mode$.value !== mode) mode$.next(mode);
  };
  exit.onclick = () => apply('inline');

  const handle = (event: AppEvent): void => {
    switch (event.kind) {
      case 'mounted':
        event.iframe.title = `view of ${options.tool}`;
        break;
      case 'initialized':
        label.textContent = `view of ${options.tool}: ${event.appInfo?.name ?? 'app'}`;
        break;
      case 'result':
        panel.showResult(text(event.result.content), event.result.isError === true);
        break;
      case 'display-mode':
        if (event.granted !== 'pip') apply(event.granted);
        break;
      case 'message':
        panel.say(`${event.role} (from the view)`, text(event.content));
        break;
      case 'model-context':
        panel.say('context for the model', event.content ? text(event.content) : JSON.stringify(event.structuredContent));
        break;
      case 'open-link':
        // The page opens nothing itself: the user follows the link, or not.
        panel.sayLink('the view offers a link', event.url);
        break;
      case 'log':
        panel.log(`[view ${event.level}] ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}`);
        break;
      case 'tool-call':
        panel.log(`[view] called ${event.name}: ${event.refused !== undefined ? `refused: ${event.refused}` : event.error !== undefined ? `failed: ${event.error}` : event.result?.isError ? 'error' : 'ok'}`);
        break;
      case 'tool-cancelled':
        panel.showResult(`the call failed: ${event.reason}`, true);
        break;
      case 'request-teardown':
        panel.say('the view', 'asks to be closed');
        break;
    }
  };

  const subscription = renderApp({
    client: options.client,
    ...(options.provider ? { provider: options.provider } : {}),
    tool: options.tool,
    arguments: options.arguments,
    container: frame,
    sandboxUrl: options.sandboxUrl,
    hostContext: hostContext$(panel.container, mode$),
    displayModes: OFFERED_MODES,
    hostInfo: { name: 'rxmcp web demo', version: '1' },
    onWarn: (message) => panel.log(`[view] ${message}`),
  }).subscribe({
    next: handle,
    error: (error: Error) => panel.say('the view failed', error.message),
  });
  // The frame itself is renderApp's to remove, once the view has answered
  // its teardown: removing it here would cut the view off before it hears.
  subscription.add(() => {
    apply('inline');
    bar.remove();
  });
  return subscription;
}
