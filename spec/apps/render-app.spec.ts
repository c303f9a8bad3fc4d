import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, type Subscription, toArray } from 'rxjs';
import { type AppEvent, McpAppResourceError, PROXY_SANDBOX, renderApp, type RenderAppOptions } from '../../src/apps/index.js';
import { McpClient, McpClientError } from '../../src/index.js';
import { ScriptedView } from '../support/scripted-view.js';

// renderApp's life cycle in Node, with a scripted page, container and frame
// (the browser spec runs it for real): what it mounts, what stops it from
// mounting, and the order of a teardown.

const PAGE = 'http://host.localhost:8080';
const SANDBOX = 'http://sandbox.localhost:8081';
const fixture = join(__dirname, '..', 'fixtures', 'apps-view-server.mjs');

// The few DOM members renderApp uses, scripted.
class ScriptedFrame {
  readonly attributes: Record<string, string> = {};
  readonly style: Record<string, string> = {};
  src = '';
  removed = false;
  constructor(readonly contentWindow: unknown, private readonly onRemove: () => void) {}
  setAttribute(name: string, value: string): void {
    this.attributes[name] = value;
  }
  remove(): void {
    this.removed = true;
    this.onRemove();
  }
}

describe('renderApp', () => {
  let client: McpClient;
  const stderr: string[] = [];
  let view: ScriptedView;
  let frames: ScriptedFrame[];
  let removals: string[];
  let container: HTMLElement;

  const options = (tool: string, extra: Partial<RenderAppOptions> = {}): RenderAppOptions => ({ client, tool, container, sandboxUrl: `${SANDBOX}/proxy.html`, ...extra });
  const waitFor = async (test: () => boolean, ms = 10000): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error('not in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const handshake = async (): Promise<void> => {
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    await view.next((message) => message.method === 'ui/notifications/sandbox-resource-ready');
    view.post({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'v', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } });
    await view.answer(1);
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await view.next((message) => message.method === 'ui/notifications/tool-input');
  };

  beforeAll(() => {
    client = McpClient.connectStdio({ command: process.execPath, args: [fixture], onStderr: (line) => stderr.push(line) });
  });
  afterAll(() => client.close());

  // A test that unsubscribes leaves a teardown waiting for the view: answer
  // it, so the frame goes now rather than at the bound, after the test.
  afterEach(async () => {
    const answered = new Set<unknown>();
    const deadline = Date.now() + 3000;
    while (!frames.every((frame) => frame.removed) && Date.now() < deadline) {
      for (const teardown of view.sent((message) => message.method === 'ui/resource-teardown' && !answered.has(message.id))) {
        answered.add(teardown.id);
        view.post({ jsonrpc: '2.0', id: teardown.id, result: {} });
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  beforeEach(() => {
    view = new ScriptedView(SANDBOX);
    frames = [];
    removals = [];
    const page = Object.assign(view.page, { location: { origin: PAGE } });
    const document = {
      baseURI: `${PAGE}/chat`,
      defaultView: page,
      createElement: () => {
        const frame = new ScriptedFrame(view.frame, () => removals.push(`removed, slow cancelled ${stderr.filter((line) => line === 'slow cancelled').length} times`));
        frames.push(frame);
        return frame;
      },
    };
    container = { ownerDocument: document, appendChild: () => undefined } as unknown as HTMLElement;
  });

  it('mounts the proxy frame from the sandbox URL, sandboxed, with the resource\'s permissions delegated that the host grants', async () => {
    const events: AppEvent[] = [];
    const subscription = renderApp({ ...options('show', { result: { content: [] } }), permissions: ['clipboardWrite', 'camera'] }).subscribe((event) => events.push(event));
    await waitFor(() => events.length > 0);
    expect(events[0]).toEqual({ kind: 'mounted', iframe: frames[0] });
    expect(frames[0]?.src).toBe(`${SANDBOX}/proxy.html`);
    expect(frames[0]?.attributes).toMatchObject({ sandbox: PROXY_SANDBOX, allow: 'clipboard-write' });
    subscription.unsubscribe();
  });

  it('delegates none of the page\'s permissions by default, whatever the resource asks', async () => {
    const events: AppEvent[] = [];
    const subscription = renderApp(options('show', { result: { content: [] } })).subscribe((event) => events.push(event));
    await waitFor(() => events.length > 0);
    expect(frames[0]?.attributes).toMatchObject({ sandbox: PROXY_SANDBOX });
    expect(frames[0]?.attributes).not.toHaveProperty('allow');
    subscription.unsubscribe();
  });

  it('tears down in order: tool-cancelled and ui/resource-teardown to the view, the frame once it answered, then the tool call is cancelled', async () => {
    const subscription: Subscription = renderApp(options('slow')).subscribe();
    await waitFor(() => frames.length === 1);
    await handshake();
    await waitFor(() => stderr.includes('slow started'));
    const cancelledBefore = stderr.filter((line) => line === 'slow cancelled').length;
    subscription.unsubscribe();
    const teardown = await view.next((message) => message.method === 'ui/resource-teardown');
    const methods = view.sent((message) => typeof message.method === 'string').map((message) => message.method);
    expect(methods.slice(-2)).toEqual(['ui/notifications/tool-cancelled', 'ui/resource-teardown']);
    expect(view.sent((message) => message.method === 'ui/notifications/tool-cancelled')[0]?.params).toEqual({ reason: 'the host closed the view' });
    // Time enough for a cancellation to reach the server, were one sent now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(frames[0]?.removed).toBe(false);
    expect(stderr.filter((line) => line === 'slow cancelled')).toHaveLength(cancelledBefore);
    view.post({ jsonrpc: '2.0', id: teardown.id, result: {} });
    await waitFor(() => frames[0]?.removed === true);
    expect(removals).toEqual([`removed, slow cancelled ${cancelledBefore} times`]);
    await waitFor(() => stderr.filter((line) => line === 'slow cancelled').length === cancelledBefore + 1);
  });

  it('removes the frame after the bound when the view never answers the teardown', async () => {
    const subscription = renderApp(options('show', { result: { content: [] }, timeoutMs: 300 })).subscribe();
    await waitFor(() => frames.length === 1);
    await handshake();
    const began = Date.now();
    subscription.unsubscribe();
    await waitFor(() => frames[0]?.removed === true);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
  });

  it('does not call the tool when given its result, and passes that result on', async () => {
    const started = stderr.filter((line) => line === 'slow started').length;
    const events: AppEvent[] = [];
    const subscription = renderApp(options('slow', { result: { content: [{ type: 'text', text: 'in hand' }] } })).subscribe((event) => events.push(event));
    await waitFor(() => frames.length === 1);
    await handshake();
    const result = await view.next((message) => message.method === 'ui/notifications/tool-result');
    expect(result.params).toEqual({ content: [{ type: 'text', text: 'in hand' }] });
    expect(events.map((event) => event.kind)).toEqual(['mounted', 'result', 'initialized']);
    expect(stderr.filter((line) => line === 'slow started')).toHaveLength(started);
    subscription.unsubscribe();
  });

  it('lets the frame follow the height the view reports', async () => {
    const subscription = renderApp(options('show', { result: { content: [] } })).subscribe();
    await waitFor(() => frames.length === 1);
    await handshake();
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 320, height: 240.4 } });
    await waitFor(() => frames[0]?.style.height === '241px');
    subscription.unsubscribe();
  });

  it('caps the frame at the host\'s maxHeight, and keeps a fixed height fixed', async () => {
    for (const [containerDimensions, height] of [
      [{ maxHeight: 200 }, '200px'],
      [{ height: 150 }, '150px'],
    ] as const) {
      frames.length = 0;
      view.posted.length = 0;
      const subscription = renderApp(options('show', { result: { content: [] }, hostContext: { containerDimensions } })).subscribe();
      await waitFor(() => frames.length === 1);
      await handshake();
      view.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 100000 } });
      await waitFor(() => frames[0]?.style.height === height);
      subscription.unsubscribe();
    }
  });

  it('reads the view of a tool with the deprecated flat key, and of one sent as base64', async () => {
    for (const tool of ['legacy_show', 'blob_view']) {
      const subscription = renderApp(options(tool, { result: { content: [] } })).subscribe();
      await waitFor(() => frames.length > 0);
      view.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
      const ready = await view.next((message) => message.method === 'ui/notifications/sandbox-resource-ready');
      expect((ready.params as { html: string }).html).toContain('<p>fixture view</p>');
      subscription.unsubscribe();
      frames.length = 0;
      view.posted.length = 0;
    }
  });

  it.each([
    ['plain', 'no-resource', 'tool "plain" declares no UI resource (_meta.ui.resourceUri)'],
    ['wrong_type', 'wrong-type', 'tool "wrong_type" has a UI resource "ui://apps-fixture/text" of type "text/plain", not "text/html;profile=mcp-app"'],
    ['too_big', 'too-large', 'tool "too_big" has a UI resource "ui://apps-fixture/big" larger than 50000 characters (maxHtmlChars)'],
    ['nowhere', 'unknown-tool', 'tool "nowhere" is not in the server\'s catalogue'],
  ])('errors with McpAppResourceError for %j (%s) and mounts nothing', async (tool, problem, message) => {
    const error = await lastValueFrom(renderApp(options(tool, { maxHtmlChars: 50_000 })).pipe(toArray())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpAppResourceError);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({ problem, tool, message });
    expect(frames).toEqual([]);
  });

  it('refuses a sandbox on the page\'s own origin', async () => {
    await expect(firstValueFrom(renderApp(options('show', { sandboxUrl: `${PAGE}/proxy.html` })))).rejects.toThrow(
      'renderApp needs the sandbox on another origin than the page: "http://host.localhost:8080/proxy.html" is on "http://host.localhost:8080"',
    );
  });
});
