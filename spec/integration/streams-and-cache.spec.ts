import { firstValueFrom, Subscription } from 'rxjs';
import { McpClient, McpTimeoutError, type JsonRpcNotification, StdioTransport, type ToolProgress } from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { eventually, everythingServer, modernServer } from '../support/servers.js';

const withTtl = (ttlMs: number) => ({ ...modernServer, args: [...modernServer.args, '--ttl', String(ttlMs)] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client over a recording stdio transport, so tests can count round trips. */
function recorded(server: { command: string; args: string[] }, options: Record<string, unknown> = {}) {
  const wire = new RecordingTransport(new StdioTransport(server));
  const mcp = new McpClient({ transport: wire, ...options });
  return { wire, mcp };
}

describe('progress and logging against the SDK v2 fixture (modern era)', () => {
  const clients: McpClient[] = [];
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));
  const connect = (options: Record<string, unknown> = {}) => {
    const mcp = McpClient.connectStdio({ ...modernServer, ...options });
    clients.push(mcp);
    return mcp;
  };

  it('delivers progress and log messages in order, before the answer they belong to', async () => {
    const mcp = connect({ logLevel: 'info' });
    const timeline: string[] = [];
    const watching = new Subscription();
    watching.add(mcp.progress$.subscribe((p) => timeline.push(`progress ${p.progress}/${p.total} ${p.message}`)));
    watching.add(mcp.log$.subscribe((m) => timeline.push(`log ${m.level} ${m.logger} ${String(m.data)}`)));
    await new Promise<void>((resolve, reject) =>
      mcp.callTool('count', { steps: 3 }, { progressToken: 'my-token' }).subscribe({
        next: (result) => timeline.push(`answer ${result.content[0]?.text}`),
        error: reject,
        complete: resolve,
      }),
    );
    watching.unsubscribe();
    expect(timeline).toEqual([
      'progress 1/3 step 1',
      'log info counter step 1',
      'progress 2/3 step 2',
      'log info counter step 2',
      'progress 3/3 step 3',
      'log info counter step 3',
      'answer counted to 3',
    ]);
  });

  it('gets no log messages from a modern server without logLevel, and lower levels with it', async () => {
    const quiet = connect();
    const heard: string[] = [];
    const watching = quiet.log$.subscribe((m) => heard.push(m.level));
    await firstValueFrom(quiet.callTool('count', { steps: 2 }));
    watching.unsubscribe();
    expect(heard).toEqual([]);

    const levels: string[] = [];
    const chatty = connect({ logLevel: 'debug', onLog: (m: { level: string }) => levels.push(m.level) });
    await firstValueFrom(chatty.callTool('count', { steps: 1 }));
    expect(levels).toEqual(['info', 'debug']);
  });

  it('reports progress to onProgress under the model\'s tool-call id, with tokens of its own', async () => {
    const reports: ToolProgress[] = [];
    const mcp = connect({ onProgress: (p: ToolProgress) => reports.push(p) });
    const tokens = new Set<unknown>();
    const watching = mcp.progress$.subscribe((p) => tokens.add(p.progressToken));
    await Promise.all([
      firstValueFrom(mcp.callTool('count', { steps: 2 }, { toolCallId: 'call_a' })),
      firstValueFrom(mcp.callTool('count', { steps: 1 }, { toolCallId: 'call_b' })),
    ]);
    watching.unsubscribe();
    expect(tokens.size).toBe(2);
    expect(reports.filter((r) => r.toolCallId === 'call_a')).toEqual([
      { toolCallId: 'call_a', progress: 1, total: 2, message: 'step 1' },
      { toolCallId: 'call_a', progress: 2, total: 2, message: 'step 2' },
    ]);
    expect(reports.filter((r) => r.toolCallId === 'call_b')).toEqual([{ toolCallId: 'call_b', progress: 1, total: 1, message: 'step 1' }]);
  });

  it('restarts the timeout at each progress report, up to maxTotalTimeoutMs', async () => {
    const mcp = connect();
    await firstValueFrom(mcp.describe()); // start the server outside the budgets under test
    const slowCount = { steps: 5, delayMs: 120 };
    await expect(firstValueFrom(mcp.callTool('count', slowCount, { timeoutMs: 300 }))).rejects.toBeInstanceOf(McpTimeoutError);
    const kept = await firstValueFrom(mcp.callTool('count', slowCount, { timeoutMs: 300, resetTimeoutOnProgress: true }));
    expect(kept.content[0]?.text).toBe('counted to 5');
    const capped = firstValueFrom(
      mcp.callTool('count', slowCount, { timeoutMs: 300, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 400 }),
    );
    await expect(capped).rejects.toMatchObject({ name: 'McpTimeoutError', timeoutMs: 400 });
  });

  it('caps a budget that progress keeps restarting at ten budgets when no maxTotalTimeoutMs is given', async () => {
    const mcp = connect();
    await firstValueFrom(mcp.describe());
    // Progress every 100 ms for 6 s: each report restarts the 300 ms budget, the default cap (3 s) does not move.
    const endless = firstValueFrom(mcp.callTool('count', { steps: 60, delayMs: 100 }, { timeoutMs: 300, resetTimeoutOnProgress: true }));
    await expect(endless).rejects.toMatchObject({ name: 'McpTimeoutError', timeoutMs: 3000 });
  });
});

describe('caching against the SDK v2 fixture (modern era)', () => {
  it('serves a second listTools inside ttlMs without a round trip, and fetches again after it', async () => {
    const { wire, mcp } = recorded(withTtl(600));
    try {
      const first = await firstValueFrom(mcp.listTools());
      const trips = wire.requests('tools/list').length;
      expect(await firstValueFrom(mcp.listTools())).toEqual(first);
      expect(wire.requests('tools/list')).toHaveLength(trips);
      await sleep(700);
      await firstValueFrom(mcp.listTools());
      expect(wire.requests('tools/list')).toHaveLength(trips * 2);
    } finally {
      await mcp.close();
    }
  });

  it('bypasses and replaces the entry with refresh, and caches resources/read too', async () => {
    const { wire, mcp } = recorded(withTtl(60000));
    try {
      await firstValueFrom(mcp.listPrompts());
      await firstValueFrom(mcp.listPrompts({ refresh: true }));
      await firstValueFrom(mcp.listPrompts());
      expect(wire.requests('prompts/list')).toHaveLength(2);
      await firstValueFrom(mcp.readResource('fixture://items/3'));
      await firstValueFrom(mcp.readResource('fixture://items/3'));
      await firstValueFrom(mcp.readResource('fixture://items/4'));
      expect(wire.requests('resources/read').map((r) => r.params?.uri)).toEqual(['fixture://items/3', 'fixture://items/4']);
    } finally {
      await mcp.close();
    }
  });

  it('stores nothing when ttlMs is 0, but shares one round trip among identical calls in flight', async () => {
    const { wire, mcp } = recorded(modernServer);
    try {
      await firstValueFrom(mcp.listPrompts());
      await firstValueFrom(mcp.listPrompts());
      expect(wire.requests('prompts/list')).toHaveLength(2);
      const burst = await Promise.all(Array.from({ length: 5 }, () => firstValueFrom(mcp.listTools())));
      expect(new Set(burst.map((tools) => tools.length))).toEqual(new Set([burst[0]?.length]));
      expect(wire.requests('tools/list').map((r) => r.params?.cursor ?? 'first')).toEqual(['first', '5', '10', '15', '20', '25']);
    } finally {
      await mcp.close();
    }
  });

  it('drops a cached list when the server says it changed, and a cached read when the resource did', async () => {
    const { wire, mcp } = recorded(withTtl(60000));
    const heard: JsonRpcNotification[] = [];
    const listening = mcp.listen({ toolsListChanged: true, resourceSubscriptions: ['fixture://readme'] }).subscribe((n) => heard.push(n));
    try {
      const before = await firstValueFrom(mcp.listTools());
      expect((await firstValueFrom(mcp.readResource('fixture://readme'))).contents[0]?.text).toBe('# Fixture');
      await eventually(() => wire.requests('subscriptions/listen').length === 1);
      await sleep(100);

      await firstValueFrom(mcp.callTool('add-tool', { name: 'late-arrival' }));
      await eventually(() => heard.some((n) => n.method === 'notifications/tools/list_changed'));
      const after = await firstValueFrom(mcp.listTools());
      expect(after.map((t) => t.name)).toEqual([...before.map((t) => t.name), 'late-arrival']);

      await firstValueFrom(mcp.callTool('edit-readme', { text: '# Edited' }));
      await eventually(() => heard.some((n) => n.method === 'notifications/resources/updated'));
      expect((await firstValueFrom(mcp.readResource('fixture://readme'))).contents[0]?.text).toBe('# Edited');
      expect(heard.find((n) => n.method === 'notifications/resources/updated')?.params).toMatchObject({ uri: 'fixture://readme' });
    } finally {
      listening.unsubscribe();
      await mcp.close();
    }
  });

  it('closes a listen stream when unsubscribed, cancelling its request', async () => {
    const { wire, mcp } = recorded(modernServer);
    try {
      const listening = mcp.listen({ promptsListChanged: true }).subscribe();
      await eventually(() => wire.requests('subscriptions/listen').length === 1);
      const id = wire.requests('subscriptions/listen')[0]?.id;
      listening.unsubscribe();
      expect(wire.cancelled).toEqual([id]);
      expect(await firstValueFrom(mcp.ping())).toBe(false);
    } finally {
      await mcp.close();
    }
  });
});

describe('against server-everything (legacy era)', () => {
  it('keeps a list until the server says it changed (it declared listChanged), and shares identical calls in flight', async () => {
    const { wire, mcp } = recorded(everythingServer);
    try {
      // It announces a tool of its own right after the handshake: heard first, it does not overtake the list.
      const announced = firstValueFrom(mcp.listen({ toolsListChanged: true }));
      await firstValueFrom(mcp.describe());
      await announced;
      await firstValueFrom(mcp.listTools());
      await firstValueFrom(mcp.listTools());
      expect(wire.requests('tools/list')).toHaveLength(1);
      await Promise.all([firstValueFrom(mcp.listPrompts()), firstValueFrom(mcp.listPrompts())]);
      await firstValueFrom(mcp.listPrompts());
      expect(wire.requests('prompts/list')).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  });

  it('delivers progress before the answer', async () => {
    const mcp = McpClient.connectStdio(everythingServer);
    const timeline: string[] = [];
    const watching = mcp.progress$.subscribe((p) => timeline.push(`progress ${p.progress}/${p.total}`));
    try {
      await new Promise<void>((resolve, reject) =>
        mcp
          .callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { progressToken: 7 })
          .subscribe({ next: () => timeline.push('answer'), error: reject, complete: resolve }),
      );
      expect(timeline).toEqual(['progress 1/3', 'progress 2/3', 'progress 3/3', 'answer']);
    } finally {
      watching.unsubscribe();
      await mcp.close();
    }
  });

  it('sets the session log level once after the handshake, and delivers log messages', async () => {
    const logs: string[] = [];
    const { wire, mcp } = recorded(everythingServer, { logLevel: 'debug', onLog: (m: { level: string }) => logs.push(m.level) });
    try {
      await firstValueFrom(mcp.describe());
      expect(wire.requests('logging/setLevel').map((r) => r.params)).toEqual([{ level: 'debug' }]);
      const initialized = wire.sent.findIndex((m) => 'method' in m && m.method === 'notifications/initialized');
      expect(wire.sent.findIndex((m) => 'method' in m && m.method === 'logging/setLevel')).toBeGreaterThan(initialized);
      await firstValueFrom(mcp.callTool('toggle-simulated-logging'));
      await eventually(() => logs.length > 0);
    } finally {
      await firstValueFrom(mcp.callTool('toggle-simulated-logging')).catch(() => undefined);
      await mcp.close();
    }
  });

  it('listens to the session\'s real tools list_changed', async () => {
    // Declaring elicitation makes server-everything register a tool after the handshake, and announce it.
    const mcp = McpClient.connectStdio({ ...everythingServer, onElicit: () => ({ action: 'decline' }) });
    try {
      const change = firstValueFrom(mcp.listen({ toolsListChanged: true }));
      expect((await change).method).toBe('notifications/tools/list_changed');
      expect((await firstValueFrom(mcp.listTools())).map((t) => t.name)).toContain('trigger-elicitation-request');
    } finally {
      await mcp.close();
    }
  });

  it('subscribes to resource updates with resources/subscribe, and unsubscribes when the last listener leaves', async () => {
    const { wire, mcp } = recorded(everythingServer);
    const uri = 'demo://resource/static/document/architecture.md';
    try {
      const first = firstValueFrom(mcp.listen({ resourceSubscriptions: [uri] }));
      const second = mcp.listen({ resourceSubscriptions: [uri] }).subscribe();
      await eventually(() => wire.requests('resources/subscribe').length === 1);
      await firstValueFrom(mcp.callTool('toggle-subscriber-updates'));
      expect((await first).params).toMatchObject({ uri });
      expect(wire.requests('resources/unsubscribe')).toHaveLength(0);
      second.unsubscribe();
      await eventually(() => wire.requests('resources/unsubscribe').length === 1);
      expect(wire.requests('resources/subscribe')).toHaveLength(1);
      await firstValueFrom(mcp.callTool('toggle-subscriber-updates'));
    } finally {
      await mcp.close();
    }
  });
});
