// The host page of the MCP Apps browser specs, bundled by apps-harness.ts:
// rxmcp/apps from the sources, driven by the spec through `window.appsHost`.
import type { Subscription } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { type AppEvent, appsExtension, renderApp, type RenderAppOptions } from '../../src/apps/index.js';

/** An event as the spec reads it: the frame element replaced by its src. */
export type RecordedEvent = Exclude<AppEvent, { kind: 'mounted' }> | { kind: 'mounted'; src: string };

/** What the page offers the spec. */
export interface AppsHostPage {
  /** Every event of every view rendered so far, in order. */
  events: RecordedEvent[];
  /** The error a view's Observable ended with, as `name: message`. */
  errors: string[];
  /** Renders a tool's view of the server at `serverUrl` into #app. */
  mount(options: { serverUrl: string; tool: string; arguments?: Record<string, unknown>; displayModes?: RenderAppOptions['displayModes'] }): void;
  /** Unsubscribes the view. */
  unmount(): void;
}

declare global {
  interface Window {
    appsHost: AppsHostPage;
  }
}

let view: Subscription | undefined;
const params = new URLSearchParams(location.search);
const sandboxUrl = params.get('sandbox') ?? '';

window.appsHost = {
  events: [],
  errors: [],
  mount(options) {
    const client = McpClient.connectHttp({ url: options.serverUrl, extensions: appsExtension, fetch: (input, init) => fetch(input, init) });
    const container = document.getElementById('app') as HTMLElement;
    view = renderApp({
      client,
      tool: options.tool,
      arguments: options.arguments ?? {},
      container,
      sandboxUrl,
      ...(options.displayModes === undefined ? {} : { displayModes: options.displayModes }),
      hostContext: { theme: 'light', locale: 'en-GB' },
    }).subscribe({
      next: (event) => window.appsHost.events.push(event.kind === 'mounted' ? { kind: 'mounted', src: event.iframe.src } : event),
      error: (error: Error) => window.appsHost.errors.push(`${error.name}: ${error.message}`),
    });
  },
  unmount() {
    view?.unsubscribe();
    view = undefined;
  },
};
