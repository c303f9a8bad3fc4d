import { join } from 'node:path';
import { firstValueFrom, NEVER, Observable, of, Subject } from 'rxjs';
import { AppHost } from '../../src/apps/app-host.js';
import { type AppResource, loadAppResource } from '../../src/apps/app-resource.js';
import { type AppEvent, WindowTransport } from '../../src/apps/index.js';
import type { ExecuteOptions, LlmToolCall, ToolMessage, ToolProvider } from '../../src/index.js';
import { McpClient, Registry, Toolkit } from '../../src/index.js';
import { z } from 'zod';
import type { CallToolResult } from '../../src/protocol/types.js';
import { appsSchemaErrors } from '../support/apps-schema.js';
import { ScriptedView } from '../support/scripted-view.js';

// The host's side of the MCP Apps conversation, against a scripted view
// window: what it accepts, what it answers, what it sends and when. The view's
// server is real (spec/fixtures/apps-view-server.mjs over stdio).

const SANDBOX = 'http://sandbox.localhost:8081';
const fixture = join(__dirname, '..', 'fixtures', 'apps-view-server.mjs');

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'ui/initialize',
  params: { appInfo: { name: 'scripted', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] }, protocolVersion: '2026-01-26' },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} };

describe('the MCP Apps host protocol', () => {
  let client: McpClient;
  const stderr: string[] = [];
  let resource: AppResource;
  let view: ScriptedView;
  let events: AppEvent[];
  let drops: string[];
  let host: AppHost;

  const start = (options: { result$?: Observable<CallToolResult>; provider?: ToolProvider; toolName?: (name: string) => string; context$?: Observable<Record<string, unknown>> } = {}): AppHost => {
    view = new ScriptedView(SANDBOX);
    events = [];
    drops = [];
    const transport = new WindowTransport({ events: view.events, peer: () => view.frame, origin: SANDBOX, onDrop: (reason) => drops.push(reason) });
    host = new AppHost({
      client,
      ...(options.provider === undefined ? {} : { provider: options.provider }),
      ...(options.toolName === undefined ? {} : { toolName: options.toolName }),
      transport,
      resource,
      arguments: { city: 'Oslo' },
      result$: options.result$ ?? of({ content: [{ type: 'text', text: 'sunny' }], structuredContent: { sky: 'clear' } }),
      hostContext$: options.context$ ?? of({ theme: 'dark', locale: 'nb-NO' }),
      displayModes: ['inline', 'fullscreen'],
      hostInfo: { name: 'spec-host', version: '1.0.0' },
      emit: (event) => events.push(event),
      warn: () => undefined,
    });
    host.start();
    return host;
  };
  const initialise = async (): Promise<void> => {
    view.post(INIT);
    await view.answer(1);
    view.post(INITIALIZED);
  };
  const call = async (id: number, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    view.post({ jsonrpc: '2.0', id, method, params });
    return view.answer(id);
  };

  beforeAll(async () => {
    client = McpClient.connectStdio({ command: process.execPath, args: [fixture], onStderr: (line) => stderr.push(line) });
    resource = await firstValueFrom(loadAppResource(client, 'show', 1_000_000));
  });

  afterEach(() => host?.close());
  afterAll(() => client.close());

  it('hands the proxy the resource once it announces itself, with the declared CSP and only the known permissions', async () => {
    start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.sent()).toEqual([]);
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    const ready = await view.next((message) => message.method === 'ui/notifications/sandbox-resource-ready');
    const { jsonrpc, ...body } = ready;
    expect(jsonrpc).toBe('2.0');
    expect(appsSchemaErrors('McpUiSandboxResourceReadyNotification', body)).toEqual([]);
    expect(ready.params).toEqual({
      html: resource.html,
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { clipboardWrite: {} },
    });
    expect(view.posted.every((entry) => entry.targetOrigin === SANDBOX)).toBe(true);
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.sent((message) => message.method === 'ui/notifications/sandbox-resource-ready')).toHaveLength(1);
  });

  it('grants no declared CSP origin on this machine, link-local or private, and says so; allowPrivateNetworkOrigins lets them through (Security Implications)', async () => {
    const declared = { connectDomains: ['https://api.example.com', 'http://localhost:3000', 'http://2130706433', 'ws://[::ffff:7f00:1]:9'], resourceDomains: ['http://169.254.169.254', 'https://*.localhost'], frameDomains: ['http://192.168.1.1'], baseUriDomains: ['http://10.0.0.1'] };
    const handed = async (allow: boolean | undefined): Promise<{ sent: unknown; told: unknown; warned: string[] }> => {
      const scripted = new ScriptedView(SANDBOX);
      const warned: string[] = [];
      const conversation = new AppHost({
        client,
        transport: new WindowTransport({ events: scripted.events, peer: () => scripted.frame, origin: SANDBOX }),
        resource: { ...resource, csp: declared },
        arguments: {},
        result$: NEVER,
        hostContext$: of({}),
        displayModes: ['inline'],
        hostInfo: { name: 'spec-host', version: '1.0.0' },
        emit: () => undefined,
        warn: (message) => warned.push(message),
        ...(allow === undefined ? {} : { allowPrivateNetworkOrigins: allow }),
      });
      conversation.start();
      try {
        scripted.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
        const ready = await scripted.next((message) => message.method === 'ui/notifications/sandbox-resource-ready');
        scripted.post(INIT);
        const answer = await scripted.answer(1);
        return { sent: (ready.params as Record<string, unknown>).csp, told: (answer.result as { hostCapabilities: { sandbox: { csp: unknown } } }).hostCapabilities.sandbox.csp, warned };
      } finally {
        conversation.close();
      }
    };
    const strict = await handed(undefined);
    const publicOnly = { connectDomains: ['https://api.example.com'], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
    expect(strict.sent).toEqual(publicOnly);
    expect(strict.told).toEqual(publicOnly);
    expect(strict.warned).toHaveLength(7);
    expect(strict.warned[0]).toBe('the view\'s connectDomains origin "http://localhost:3000" was refused: its host is on this machine (allowPrivateNetworkOrigins: true lets it through)');
    const opted = await handed(true);
    expect(opted.sent).toEqual(declared);
    expect(opted.warned).toEqual([]);
  });

  it('answers ui/initialize as the schema says, and sends the view nothing else until it has said initialized', async () => {
    start();
    view.post(INIT);
    const answer = await view.answer(1);
    expect(appsSchemaErrors('McpUiInitializeResult', answer.result)).toEqual([]);
    expect(answer.result).toMatchObject({
      protocolVersion: '2026-01-26',
      hostInfo: { name: 'spec-host', version: '1.0.0' },
      hostContext: { theme: 'dark', locale: 'nb-NO', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] },
      hostCapabilities: { serverTools: {}, serverResources: {}, openLinks: {}, logging: {}, sandbox: { permissions: { clipboardWrite: {} } } },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(view.sent((message) => 'method' in message)).toEqual([]);
    expect(events).toEqual([{ kind: 'result', result: { content: [{ type: 'text', text: 'sunny' }], structuredContent: { sky: 'clear' } } }]);

    view.post(INITIALIZED);
    const input = await view.next((message) => message.method === 'ui/notifications/tool-input');
    const result = await view.next((message) => message.method === 'ui/notifications/tool-result');
    const methods = view.sent((message) => 'method' in message).map((message) => message.method);
    expect(methods).toEqual(['ui/notifications/tool-input', 'ui/notifications/tool-result']);
    expect(input.params).toEqual({ arguments: { city: 'Oslo' } });
    expect(appsSchemaErrors('McpUiToolInputNotification', { method: input.method, params: input.params })).toEqual([]);
    expect(appsSchemaErrors('McpUiToolResultNotification', { method: result.method, params: result.params })).toEqual([]);
    expect(events[1]).toEqual({ kind: 'initialized', appInfo: { name: 'scripted', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] }, protocolVersion: '2026-01-26' });
  });

  it('holds a result that arrives before initialized, and sends a later one as soon as it comes', async () => {
    const result$ = new Subject<CallToolResult>();
    start({ result$ });
    await initialise();
    await view.next((message) => message.method === 'ui/notifications/tool-input');
    expect(view.sent((message) => message.method === 'ui/notifications/tool-result')).toEqual([]);
    result$.next({ content: [{ type: 'text', text: 'late' }] });
    const sent = await view.next((message) => message.method === 'ui/notifications/tool-result');
    expect(sent.params).toEqual({ content: [{ type: 'text', text: 'late' }] });
  });

  it('tells the view a failed tool call was cancelled, as the schema says', async () => {
    start({ result$: new Observable<CallToolResult>((subscriber) => subscriber.error(new Error('the server went away'))) });
    await initialise();
    const cancelled = await view.next((message) => message.method === 'ui/notifications/tool-cancelled');
    expect(cancelled.params).toEqual({ reason: 'the server went away' });
    expect(appsSchemaErrors('McpUiToolCancelledNotification', { method: cancelled.method, params: cancelled.params })).toEqual([]);
    expect(events).toContainEqual({ kind: 'tool-cancelled', reason: 'the server went away' });
  });

  it('sends each later host context as host-context-changed, valid against the schema', async () => {
    const context$ = new Subject<Record<string, unknown>>();
    start({ context$: context$ as Observable<Record<string, unknown>> });
    context$.next({ theme: 'light' });
    await initialise();
    context$.next({ theme: 'dark', locale: 'fr-FR' });
    const changed = await view.next((message) => message.method === 'ui/notifications/host-context-changed');
    expect(changed.params).toEqual({ theme: 'dark', locale: 'fr-FR' });
    expect(appsSchemaErrors('McpUiHostContextChangedNotification', { method: changed.method, params: changed.params })).toEqual([]);
  });

  it('ignores a message from another window, or from the frame at another origin', async () => {
    start();
    view.post(INIT, { source: {} });
    view.post(INIT, { source: null });
    view.post(INIT, { origin: 'http://evil.localhost:8081' });
    view.post(INIT, { origin: 'null' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(view.sent()).toEqual([]);
    expect(drops).toEqual([
      'a message dropped: from origin "http://evil.localhost:8081", not "http://sandbox.localhost:8081"',
      'a message dropped: from origin "null", not "http://sandbox.localhost:8081"',
    ]);
    view.post(INIT);
    expect((await view.answer(1)).result).toBeDefined();
  });

  it('drops malformed, oversized, non-JSON and prototype-bearing messages without answering them', async () => {
    start();
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', id: 2, method: 'ping', params: {} };
    (cyclic.params as Record<string, unknown>).self = cyclic;
    let deep: unknown = {};
    for (let level = 0; level < 100; level++) deep = { a: deep };
    const hostile: unknown[] = [
      'a string',
      42,
      null,
      [INIT],
      { id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: { nested: true }, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping', params: 'not an object' },
      new Map([['jsonrpc', '2.0']]),
      { jsonrpc: '2.0', id: 2, method: 'ping', params: { when: new Date() } },
      { jsonrpc: '2.0', id: 2, method: 'ping', params: { n: Number.NaN } },
      cyclic,
      { jsonrpc: '2.0', id: 2, method: 'ping', params: { deep } },
      { jsonrpc: '2.0', id: 2, method: 'ping', params: { big: 'x'.repeat(5 * 1024 * 1024) } },
      JSON.parse('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"__proto__":{"polluted":true}}}'),
    ];
    for (const data of hostile) view.post(data);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(view.sent()).toEqual([]);
    expect(drops).toHaveLength(hostile.length);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    view.post({ jsonrpc: '2.0', id: 3, method: 'ping', params: {} });
    expect(await view.answer(3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('answers unknown methods, bad params and calls before ui/initialize with JSON-RPC errors', async () => {
    start();
    expect((await call(2, 'tools/call', { name: 'show' })).error).toMatchObject({ code: -32000, message: 'tools/call before ui/initialize' });
    await initialise();
    expect((await call(3, 'sampling/createMessage', {})).error).toMatchObject({ code: -32601 });
    expect((await call(4, 'ui/message', { role: 'assistant', content: [{ type: 'text', text: 'x' }] })).error).toMatchObject({ code: -32602 });
    expect((await call(5, 'ui/request-display-mode', { mode: 'cinema' })).error).toMatchObject({ code: -32602 });
    expect((await call(6, 'ui/open-link', { url: 'javascript:alert(1)' })).error).toMatchObject({ code: -32602 });
    expect((await call(7, 'ui/open-link', { url: 'file:///etc/passwd' })).error).toMatchObject({ code: -32602 });
    expect(events.filter((event) => event.kind === 'open-link' || event.kind === 'message')).toEqual([]);
  });

  it('relays messages, model context, links, logs, sizes and teardown requests as events', async () => {
    start();
    await initialise();
    expect((await call(2, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] })).result).toEqual({});
    expect((await call(3, 'ui/update-model-context', { structuredContent: { picked: 3 } })).result).toEqual({});
    expect((await call(4, 'ui/open-link', { url: 'https://example.com/a b' })).result).toEqual({});
    view.post({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { n: 1 } } });
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300, height: 120 } });
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: -5 } });
    view.post({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} });
    expect((await call(5, 'ping', {})).result).toEqual({});
    expect(events.slice(2)).toEqual([
      { kind: 'message', role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { kind: 'model-context', structuredContent: { picked: 3 } },
      { kind: 'open-link', url: 'https://example.com/a%20b' },
      { kind: 'log', level: 'info', data: { n: 1 } },
      { kind: 'size', width: 300, height: 120 },
      { kind: 'request-teardown' },
    ]);
  });

  it('grants a display mode both sides offer, and answers the current one otherwise', async () => {
    start();
    await initialise();
    expect((await call(2, 'ui/request-display-mode', { mode: 'pip' })).result).toEqual({ mode: 'inline' });
    const granted = await call(3, 'ui/request-display-mode', { mode: 'fullscreen' });
    expect(appsSchemaErrors('McpUiRequestDisplayModeResult', granted.result)).toEqual([]);
    expect(granted.result).toEqual({ mode: 'fullscreen' });
    const changed = await view.next((message) => message.method === 'ui/notifications/host-context-changed');
    expect(changed.params).toEqual({ displayMode: 'fullscreen' });
    expect(events.filter((event) => event.kind === 'display-mode')).toEqual([
      { kind: 'display-mode', requested: 'pip', granted: 'inline' },
      { kind: 'display-mode', requested: 'fullscreen', granted: 'fullscreen' },
    ]);
  });

  it('lets the view call only its own server\'s tools whose visibility includes "app"', async () => {
    start();
    await initialise();
    const ran = (name: string) => ({ content: [{ type: 'text', text: JSON.stringify({ name, arguments: { x: 1 } }) }], structuredContent: { name, arguments: { x: 1 } } });
    expect((await call(2, 'tools/call', { name: 'app_only', arguments: { x: 1 } })).result).toEqual(ran('app_only'));
    expect((await call(3, 'tools/call', { name: 'show', arguments: { x: 1 } })).result).toEqual(ran('show'));
    expect((await call(4, 'tools/call', { name: 'both', arguments: { x: 1 } })).result).toEqual(ran('both'));
    expect((await call(5, 'tools/call', { name: 'model_only', arguments: { x: 1 } })).error).toEqual({ code: -32000, message: 'tool "model_only" is not visible to apps' });
    expect((await call(6, 'tools/call', { name: 'elsewhere__delete', arguments: {} })).error).toEqual({
      code: -32000,
      message: 'tool "elsewhere__delete" is not offered by this view\'s server',
    });
    expect((await call(7, 'tools/call', { name: 'odd_visibility', arguments: {} })).error).toEqual({ code: -32000, message: 'tool "odd_visibility" is not visible to apps' });
    expect(events.filter((event) => event.kind === 'tool-call')).toEqual([
      { kind: 'tool-call', name: 'app_only', arguments: { x: 1 }, result: ran('app_only') },
      { kind: 'tool-call', name: 'show', arguments: { x: 1 }, result: ran('show') },
      { kind: 'tool-call', name: 'both', arguments: { x: 1 }, result: ran('both') },
      { kind: 'tool-call', name: 'model_only', arguments: { x: 1 }, refused: 'tool "model_only" is not visible to apps' },
      { kind: 'tool-call', name: 'elsewhere__delete', arguments: {}, refused: 'tool "elsewhere__delete" is not offered by this view\'s server' },
      { kind: 'tool-call', name: 'odd_visibility', arguments: {}, refused: 'tool "odd_visibility" is not visible to apps' },
    ]);
  });

  it('sends the view\'s calls through the provider as the app, under the provider\'s name, and never a refused one', async () => {
    const seen: Array<{ calls: LlmToolCall[]; options: ExecuteOptions | undefined }> = [];
    const provider: ToolProvider = {
      toolsForLlm: () => Promise.resolve([]),
      executeToolCalls: (calls, options) => {
        seen.push({ calls, options });
        return Promise.resolve(calls.map((entry): ToolMessage => ({ role: 'tool', tool_call_id: entry.id, content: 'asked and allowed', is_error: false, structured_content: { ok: true } })));
      },
    };
    start({ provider, toolName: (name) => `fixture_${name}` });
    await initialise();
    expect((await call(2, 'tools/call', { name: 'app_only', arguments: { x: 1 } })).result).toEqual({ content: [{ type: 'text', text: 'asked and allowed' }], isError: false, structuredContent: { ok: true } });
    expect((await call(3, 'tools/call', { name: 'model_only', arguments: {} })).error).toMatchObject({ code: -32000 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.calls).toEqual([{ id: 'app-call', type: 'function', function: { name: 'fixture_app_only', arguments: { x: 1 } } }]);
    expect(seen[0]?.options).toMatchObject({ names: 'real', caller: 'app', maxResultChars: Infinity });
  });

  it('never lets a view\'s call reach another provider of a Registry, whatever the prefixes', async () => {
    // Another provider of the host's, which the view's server must never reach.
    const ran: string[] = [];
    const victim = new Toolkit({ name: 'victim' }).tool('only', { description: 'the user\'s own tool', input: z.object({}) }, () => {
      ran.push('only');
      return { content: [{ type: 'text', text: 'victim ran' }] };
    });
    // Prefixes may extend each other (the longest wins): "fixture_app" is routed before "fixture".
    start({ provider: new Registry().add(client, { prefix: 'fixture' }).add(victim, { prefix: 'fixture_app' }), toolName: (name) => `fixture_${name}` });
    await initialise();
    const nested = await call(2, 'tools/call', { name: 'app_only', arguments: {} });
    expect(nested.result).not.toMatchObject({ content: [{ type: 'text', text: 'victim ran' }] });
    host.close();
    // A Registry without toolName: the view's own tool named after another prefix.
    start({ provider: new Registry().add(client, { prefix: 'fx' }).add(victim, { prefix: 'app' }) });
    await initialise();
    const unmapped = await call(3, 'tools/call', { name: 'app_only', arguments: {} });
    expect(unmapped.result).not.toMatchObject({ content: [{ type: 'text', text: 'victim ran' }] });
    expect(ran).toEqual([]);
  });

  it('reads resources of the view\'s own server, and passes its errors on', async () => {
    start();
    await initialise();
    const read = await call(2, 'resources/read', { uri: 'ui://apps-fixture/text' });
    expect(read.result).toEqual({ contents: [{ uri: 'ui://apps-fixture/text', mimeType: 'text/plain', text: 'not a view' }] });
    expect((await call(3, 'resources/read', { uri: 'file:///etc/passwd' })).error).toMatchObject({ message: expect.stringContaining('no resource file:///etc/passwd') });
  });

  it('sends ui/resource-teardown as the schema says and waits for the answer, at most the bound', async () => {
    start();
    await initialise();
    let done = false;
    const teardown = host.teardown(10000).then(() => (done = true));
    const request = await view.next((message) => message.method === 'ui/resource-teardown');
    expect(appsSchemaErrors('McpUiResourceTeardownRequest', { method: request.method, params: request.params })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    view.post({ jsonrpc: '2.0', id: request.id, result: {} });
    await teardown;
    expect(done).toBe(true);

    start();
    await initialise();
    const began = Date.now();
    await host.teardown(300);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
    expect(view.sent((message) => message.method === 'ui/resource-teardown')).toHaveLength(1);
  });

  it('sends no teardown to a view that never initialised', async () => {
    start();
    view.post(INIT);
    await view.answer(1);
    await host.teardown(5000);
    expect(view.sent((message) => 'method' in message)).toEqual([]);
  });

  it('cancels the view\'s calls still running when it closes', async () => {
    start();
    await initialise();
    view.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    const before = stderr.filter((line) => line === 'slow cancelled').length;
    const deadline = Date.now() + 10000;
    while (!stderr.includes('slow started') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    host.close();
    while (stderr.filter((line) => line === 'slow cancelled').length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stderr.filter((line) => line === 'slow cancelled')).toHaveLength(before + 1);
  });

  it('refuses a view\'s requests past 16 running at once, rather than queueing them', async () => {
    start();
    await initialise();
    const before = stderr.filter((line) => line === 'slow started').length;
    for (let id = 100; id < 120; id++) view.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    const refusals = await Promise.all([116, 117, 118, 119].map((id) => view.answer(id)));
    for (const refusal of refusals) expect(refusal.error).toEqual({ code: -32000, message: "tools/call refused: 16 of this view's requests are still running" });
    expect((await call(120, 'resources/read', { uri: 'ui://apps-fixture/text' })).error).toMatchObject({ code: -32000 });
    const deadline = Date.now() + 10000;
    while (stderr.filter((line) => line === 'slow started').length < before + 16 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stderr.filter((line) => line === 'slow started')).toHaveLength(before + 16);
    expect(view.sent((message) => typeof message.id === 'number' && message.id < 116 && 'error' in message)).toEqual([]);
  });

  it('refuses a request whose id is still running: reused ids neither pass the bound of 16 nor outlive close', async () => {
    start();
    await initialise();
    const started = () => stderr.filter((line) => line === 'slow started').length;
    const cancelled = () => stderr.filter((line) => line === 'slow cancelled').length;
    // The earlier tests' slow calls are cancelled as they close: let them all finish first.
    const settled = Date.now() + 10000;
    while (cancelled() < started() && Date.now() < settled) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = started();
    const beforeCancelled = cancelled();
    for (let n = 0; n < 20; n++) view.post({ jsonrpc: '2.0', id: 200, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(started() - before).toBe(1);
    expect(view.sent((message) => message.id === 200 && 'error' in message)).toHaveLength(19);
    host.close();
    const deadline = Date.now() + 10000;
    while (cancelled() - beforeCancelled < started() - before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled() - beforeCancelled).toBe(started() - before);
  });

  it('needs no host context: an empty one by default still carries the display modes', async () => {
    start({ context$: NEVER });
    view.post(INIT);
    expect((await view.answer(1)).result).toMatchObject({ hostContext: { displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] } });
  });
});
