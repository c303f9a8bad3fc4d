// MCP Apps views in the inspector: a tool whose definition names a UI
// resource is shown as its view, in the #view section, inline or fullscreen.
// renderApp mounts the view in the sandbox (the inspector's second origin)
// and runs the host's side of the conversation; this file binds the rest to
// the page. The view's own tool calls go to the server through the client,
// held by renderApp to what MCP Apps lets a view call (tools visible to apps).
import { BehaviorSubject, combineLatest, distinctUntilChanged, from, map, Observable, type Subscription, switchMap } from 'rxjs';
import type { CallToolResult, McpClient } from 'rxmcp';
import { type AppEvent, DEFAULT_TEARDOWN_MS, type McpUiHostContext, renderApp } from 'rxmcp/apps';
import { byId, element } from './element.js';

type Mode = 'inline' | 'fullscreen';
const MODES: Mode[] = ['inline', 'fullscreen'];
/** An inline view grows with its content up to this height; past it, it scrolls. */
const INLINE_MAX_HEIGHT = 1200;
/** The view's lines (its logs, messages, links and calls) kept on the page. */
const MAX_NOTES = 200;

let sandbox: Promise<string> | undefined;

// Where the sandbox proxy is: another port of the inspector's (so another
// origin), at the name this page was loaded by, which the page may frame.
function sandboxUrl(): Promise<string> {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  sandbox ??= fetch('/api/views', { headers: { Authorization: `Bearer ${token}` } })
    .then((response) => response.json() as Promise<{ sandboxPort: number; sandboxPath: string }>)
    .then(({ sandboxPort, sandboxPath }) => `${location.protocol}//${location.hostname}:${sandboxPort}${sandboxPath}`);
  return sandbox;
}

/** Shows the #view section while the sign-in panel or a view is in it. */
export function showViewSection(): void {
  byId('view').hidden = byId('sign-in').hidden && byId('app-view').hidden;
}

/** What the call panel shows of a view's call. */
export interface ViewCallbacks {
  /** The tool's result, once the view has it. */
  onResult(result: CallToolResult): void;
  /** The view could not be shown, or its call failed. */
  onError(message: string): void;
}

/**
 * Calls `tool` and shows its view in the #view section until the returned
 * subscription ends: then the view is told to tear down (and its frame
 * goes once it has answered), a call still running is cancelled, and so
 * are the view's own calls (which withdraws any question they asked).
 * Fullscreen and back by the bar's buttons, by the view's asking, and
 * Escape (when the page, not the view, has the keyboard) leaves fullscreen.
 */
export function showView(mcp: McpClient, tool: string, args: Record<string, unknown>, { onResult, onError }: ViewCallbacks): Subscription {
  const box = byId('app-view');
  const label = element('span', `view of ${tool}`);
  const enter = element('button', 'Fullscreen');
  enter.id = 'fullscreen';
  const exit = element('button', 'Exit fullscreen');
  exit.id = 'exit-fullscreen';
  const bar = element('div');
  bar.className = 'view-bar';
  bar.append(label, enter, exit);
  const frame = element('div');
  frame.className = 'view-frame';
  const notes = element('div');
  notes.className = 'view-notes';
  // A frame still tearing down (an earlier view) stays, hidden, until renderApp removes it.
  box.querySelector('.view-bar')?.remove();
  box.querySelector('.view-notes')?.remove();
  box.prepend(bar);
  box.append(frame, notes);
  box.hidden = false;
  showViewSection();

  const note = (line: string): void => {
    notes.append(element('div', line));
    while (notes.childElementCount > MAX_NOTES) notes.firstElementChild?.remove();
  };
  const mode$ = new BehaviorSubject<Mode>('inline');
  const apply = (mode: Mode): void => {
    box.classList.toggle('fullscreen', mode === 'fullscreen');
    enter.hidden = mode === 'fullscreen';
    exit.hidden = mode !== 'fullscreen';
    if (mode$.value !== mode) mode$.next(mode);
  };
  apply('inline');
  enter.onclick = () => apply('fullscreen');
  exit.onclick = () => apply('inline');
  const onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && mode$.value === 'fullscreen') apply('inline');
  };
  document.addEventListener('keydown', onKey);

  const handle = (event: AppEvent): void => {
    switch (event.kind) {
      case 'mounted':
        event.iframe.title = `view of ${tool}`;
        break;
      case 'initialized':
        label.textContent = `view of ${tool}: ${event.appInfo?.name ?? 'app'}`;
        break;
      case 'result':
        onResult(event.result);
        break;
      case 'tool-cancelled':
        onError(`the call failed: ${event.reason}`);
        break;
      case 'display-mode':
        if (event.granted !== 'pip') apply(event.granted);
        break;
      case 'message':
        note(`the view says (${event.role}): ${JSON.stringify(event.content)}`);
        break;
      case 'model-context':
        note(`the view gives the model context: ${JSON.stringify(event.content ?? event.structuredContent)}`);
        break;
      case 'open-link':
        // Shown as text: the inspector opens nothing a view names.
        note(`the view offers a link: ${event.url}`);
        break;
      case 'log':
        note(`[view ${event.level}] ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}`);
        break;
      case 'tool-call':
        note(`the view called ${event.name}: ${event.refused !== undefined ? `refused: ${event.refused}` : event.error !== undefined ? `failed: ${event.error}` : event.result?.isError ? 'error' : 'ok'}`);
        break;
      case 'request-teardown':
        note('the view asks to be closed');
        break;
    }
  };

  const subscription = from(sandboxUrl())
    .pipe(
      switchMap((url) =>
        renderApp({
          client: mcp,
          tool,
          arguments: args,
          container: frame,
          sandboxUrl: url,
          hostContext: hostContext$(box, mode$),
          displayModes: MODES,
          hostInfo: { name: 'rxmcp inspect', version: '1' },
          onWarn: (message) => note(`[view] ${message}`),
        }),
      ),
    )
    .subscribe({ next: handle, error: (error: Error) => onError(`the view failed: ${error.message}`) });
  subscription.add(() => {
    document.removeEventListener('keydown', onKey);
    apply('inline');
    bar.remove();
    notes.remove();
    frame.hidden = true;
    // renderApp removes the iframe once the view has answered its teardown, at most this long after.
    setTimeout(() => frame.remove(), DEFAULT_TEARDOWN_MS + 500);
    if (box.querySelector('.view-bar') === null) {
      box.hidden = true;
      showViewSection();
    }
  });
  return subscription;
}

// The host context: the display mode, the container's size (inline: its
// width and a height bound; fullscreen: what the window gives), the reader's
// locale and time zone.
function hostContext$(container: HTMLElement, mode$: Observable<Mode>): Observable<McpUiHostContext> {
  const size$ = new Observable<{ width: number; height: number }>((subscriber) => {
    const emit = (): void => subscriber.next({ width: Math.round(container.clientWidth), height: Math.round(container.clientHeight) });
    const observer = new ResizeObserver(emit);
    observer.observe(container);
    emit();
    return () => observer.disconnect();
  });
  return combineLatest([mode$, size$]).pipe(
    map(([displayMode, { width, height }]) => ({
      theme: 'light' as const,
      displayMode,
      availableDisplayModes: MODES,
      containerDimensions: displayMode === 'fullscreen' ? { width, height } : { width, maxHeight: INLINE_MAX_HEIGHT },
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: 'web' as const,
    })),
    distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
  );
}
