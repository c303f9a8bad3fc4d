import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, map, type Observable, toArray } from 'rxjs';
import {
  type JsonRpcMessage,
  McpClient,
  McpClientError,
  McpOutputSchemaError,
  StdioTransport,
  type Transport,
} from '../../src/index.js';
import { hostileServer } from '../support/hostile-corpus.js';
import { eventually, everythingServer, fixture } from '../support/servers.js';

// Tools that declare an outputSchema, against real servers: the structured
// fixture (the official server SDK, sending what McpServer would refuse to),
// server-everything's get-structured-content, the tasks fixture, and the
// hand-written hostile server's schemas no validator should be let loose on.

const structured = (...args: string[]) => fixture('structured-server.mjs', ...args);

const clients: McpClient[] = [];
const connect = (options: Parameters<typeof McpClient.connectStdio>[0]): McpClient => {
  const mcp = McpClient.connectStdio(options);
  clients.push(mcp);
  return mcp;
};
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
});

const failure = (call: Observable<unknown>): Promise<unknown> =>
  firstValueFrom(call).then(
    (value) => ({ resolved: value }),
    (error: unknown) => error,
  );

describe.each([
  ['2026-07-28', {}],
  ['2025-11-25', { era: 'legacy' as const }],
])('structuredContent checked against the outputSchema, %s', (version, eraOption) => {
  const open = (options: Record<string, unknown> = {}): McpClient => connect({ ...structured(), ...eraOption, ...options });

  it('fails callTool with McpOutputSchemaError naming the tool and the first violation', async () => {
    const mcp = open();
    expect((await firstValueFrom(mcp.describe())).protocolVersion).toBe(version);
    await firstValueFrom(mcp.listTools());
    const error = await failure(mcp.callTool('forecast', { mode: 'wrong-type' }));
    expect(error).toBeInstanceOf(McpOutputSchemaError);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({ name: 'McpOutputSchemaError', tool: 'forecast', problem: 'mismatch' });
    expect((error as Error).message).toBe(
      'tool "forecast" returned structuredContent that breaks its outputSchema: at "#/temperature" ("#/properties/temperature/type"): ' +
        '"Instance type \\"string\\" is invalid. Expected \\"number\\"."',
    );
    // The connection goes on, and a result that keeps to the schema comes back as sent.
    expect((await firstValueFrom(mcp.callTool('forecast', { mode: 'fine' }))).structuredContent).toEqual({ temperature: 21, conditions: 'sunny' });
  });

  it('fails a result that has no structuredContent where the tool declares an outputSchema', async () => {
    const mcp = open();
    await firstValueFrom(mcp.listTools());
    const error = await failure(mcp.callTool('forecast', { mode: 'missing' }));
    expect(error).toMatchObject({ tool: 'forecast', problem: 'missing', message: 'tool "forecast" declares an outputSchema but returned no structuredContent' });
  });

  it('checks only results without isError: the tool failing in its own words is a value', async () => {
    const mcp = open();
    await firstValueFrom(mcp.listTools());
    expect(await failure(mcp.callTool('forecast', { mode: 'wrong-type' }))).toBeInstanceOf(McpOutputSchemaError);
    const result = await firstValueFrom(mcp.callTool('forecast', { mode: 'error' }));
    expect(result).toEqual({ content: [{ type: 'text', text: 'the weather station is down' }], structuredContent: { station: 'down' }, isError: true });
    // A tool without an outputSchema is not checked either.
    expect((await firstValueFrom(mcp.callTool('plain'))).structuredContent).toEqual({ anything: [1, 'two'] });
  });

  it('checks the tools it has seen listed, and no others: it sends no tools/list of its own', async () => {
    const mcp = open();
    expect((await firstValueFrom(mcp.callTool('forecast', { mode: 'wrong-type' }))).structuredContent).toEqual({ temperature: 'warm', conditions: 'sunny' });
    await firstValueFrom(mcp.listTools());
    expect(await failure(mcp.callTool('forecast', { mode: 'wrong-type' }))).toBeInstanceOf(McpOutputSchemaError);
  });

  it('hands over what the server sent with validateStructuredContent: false', async () => {
    const mcp = open({ validateStructuredContent: false });
    await firstValueFrom(mcp.listTools());
    expect((await firstValueFrom(mcp.callTool('forecast', { mode: 'wrong-type' }))).structuredContent).toEqual({ temperature: 'warm', conditions: 'sunny' });
    expect((await firstValueFrom(mcp.callTool('forecast', { mode: 'missing' }))).structuredContent).toBeUndefined();
    expect(await mcp.executeToolCalls([{ id: 'c1', function: { name: 'forecast', arguments: '{"mode":"wrong-type"}' } }])).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'warm and sunny', is_error: false, structured_content: { temperature: 'warm', conditions: 'sunny' } },
    ]);
  });

  it('answers a model with an is_error message naming the tool, and the next call in the batch still runs', async () => {
    const mcp = open();
    const messages = await mcp.executeToolCalls([
      { id: 'c1', function: { name: 'forecast', arguments: '{"mode":"wrong-type"}' } },
      { id: 'c2', function: { name: 'forecast', arguments: '{"mode":"fine"}' } },
    ]);
    expect(messages[0]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content:
        'tool "forecast" returned structuredContent that breaks its outputSchema: at "#/temperature" ("#/properties/temperature/type"): ' +
        '"Instance type \\"string\\" is invalid. Expected \\"number\\"."',
      is_error: true,
    });
    expect(messages[1]).toMatchObject({ tool_call_id: 'c2', is_error: false, structured_content: { temperature: 21, conditions: 'sunny' } });
  });

  it('never fetches a $ref to a URL: the call fails closed, and the URL gets no request', async () => {
    let requests = 0;
    const server: Server = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"type":"object"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
      const mcp = connect({ ...structured('--ref-url', url), ...eraOption });
      await firstValueFrom(mcp.listTools());
      const error = await failure(mcp.callTool('remote'));
      expect(error).toMatchObject({ tool: 'remote', problem: 'unchecked' });
      expect((error as Error).message).toContain(`its outputSchema has a $ref outside itself (never fetched): ${JSON.stringify(url)}`);
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** A real server's answers, one of them altered on its way to the client. */
class AlteringTransport implements Transport {
  readonly inbound: Observable<JsonRpcMessage>;
  readonly outbound: Transport['outbound'];
  constructor(
    private readonly inner: Transport,
    alter: (message: JsonRpcMessage) => JsonRpcMessage,
  ) {
    this.inbound = inner.inbound.pipe(map(alter));
    this.outbound = inner.outbound;
  }
  cancel(...args: Parameters<Transport['cancel']>): void {
    this.inner.cancel(...args);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe('server-everything\'s get-structured-content (2025-11-25)', () => {
  it('passes its own answer, and fails the same answer with a humidity that is not a number, naming the tool', async () => {
    let tamper = false;
    const transport = new AlteringTransport(new StdioTransport(everythingServer), (message) => {
      const result = (message as { result?: { structuredContent?: Record<string, unknown> } }).result;
      if (tamper && result?.structuredContent) result.structuredContent.humidity = 'muggy';
      return message;
    });
    const mcp = new McpClient({ transport });
    clients.push(mcp);
    // The server changes its tool list once it has started, which makes the
    // client forget what it listed before: list after that.
    let changes = 0;
    const counting = mcp.notifications$.pipe(filter((note) => note.method === 'notifications/tools/list_changed')).subscribe(() => changes++);
    await firstValueFrom(mcp.describe());
    await eventually(() => changes > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    counting.unsubscribe();
    const tools = await firstValueFrom(mcp.listTools());
    expect(tools.find((tool) => tool.name === 'get-structured-content')?.outputSchema).toBeDefined();
    const fine = await firstValueFrom(mcp.callTool('get-structured-content', { location: 'Chicago' }));
    expect(fine.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    tamper = true;
    const error = await failure(mcp.callTool('get-structured-content', { location: 'Chicago' }));
    expect(error).toMatchObject({ name: 'McpOutputSchemaError', tool: 'get-structured-content', problem: 'mismatch' });
    expect((error as Error).message).toMatch(/^tool "get-structured-content" returned structuredContent that breaks its outputSchema: at "#\/humidity"/);
  });
});

describe('task results (the tasks extension, 2026-07-28)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxmcp-structured-tasks-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks the result of a task as it checks a direct answer, through callToolAsTask and callTool', async () => {
    const mcp = connect({ ...fixture('tasks-server.mjs', dir), tasks: true });
    await firstValueFrom(mcp.listTools());
    const events = await firstValueFrom(mcp.callToolAsTask('forecast', { ms: 50, fine: true }).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ kind: 'result', result: { structuredContent: { temperature: 21 } } });
    const broken = await failure(mcp.callToolAsTask('forecast', { ms: 50 }).pipe(filter((event) => event.kind === 'result')));
    expect(broken).toMatchObject({ name: 'McpOutputSchemaError', tool: 'forecast', problem: 'mismatch' });
    expect(await failure(mcp.callTool('forecast', { ms: 50 }))).toMatchObject({ tool: 'forecast', problem: 'mismatch' });
  });
});

describe('outputSchemas no validator should be let loose on (the hostile server)', () => {
  it.each([
    ['deep-output-schema', 'its outputSchema nests deeper than 64 levels'],
    ['huge-output-schema', 'its outputSchema holds more than 20000 values'],
    ['ref-cycle-output-schema', 'its outputSchema has a $ref cycle that never descends into the value'],
    ['remote-ref-output-schema', 'its outputSchema has a $ref outside itself (never fetched)'],
    ['exponential-output-schema', 'checking it would take too many steps'],
    ['deep-checked-structured-content', 'structuredContent nests too deep (over 200 levels) to check against this schema'],
    ['unknown-dialect-output-schema', 'its outputSchema declares a JSON Schema dialect this client does not support ($schema is "http://json-schema.org/draft-04/schema#"'],
    ['non-string-dialect-output-schema', 'its outputSchema declares a JSON Schema dialect this client does not support ($schema is of type object'],
    ['draft-07-ref-cycle-output-schema', 'its outputSchema has a $ref cycle that never descends into the value'],
    ['recursive-ref-output-schema', 'its outputSchema uses $recursiveRef, which this client does not follow'],
    ['redos-pattern-properties-output-schema', 'its outputSchema uses patternProperties, whose regular expressions this client does not run'],
  ])('fails closed on %s with the typed error, in bounded time, and the next call works', async (hostileCase, why) => {
    const mcp = connect({ ...hostileServer, args: [...hostileServer.args, '--case', hostileCase] });
    await firstValueFrom(mcp.listTools());
    const started = Date.now();
    const error = await failure(mcp.callTool('echo', { text: 'hi' }));
    expect(error).toMatchObject({ name: 'McpOutputSchemaError', tool: 'echo', problem: 'unchecked' });
    expect((error as Error).message).toContain(why);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await failure(mcp.callTool('echo', { text: 'again' }))).toBeInstanceOf(McpOutputSchemaError);
    expect(await firstValueFrom(mcp.describe())).toMatchObject({ era: 'modern' });
  });

  it('never runs a server\'s pattern, which could backtrack for ever: the rest of the schema is checked and the result arrives', async () => {
    const mcp = connect({ ...hostileServer, args: [...hostileServer.args, '--case', 'redos-pattern-output-schema'] });
    await firstValueFrom(mcp.listTools());
    const result = await firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
    expect(result.structuredContent).toEqual({ s: `${'a'.repeat(40)}!` });
  });

  it('lets no "__proto__" in an outputSchema choose what the schema asks', async () => {
    const mcp = connect({ ...hostileServer, args: [...hostileServer.args, '--case', 'proto-output-schema'] });
    await firstValueFrom(mcp.listTools());
    const error = await failure(mcp.callTool('echo', { text: 'hi' }));
    expect(error).toMatchObject({ tool: 'echo', problem: 'mismatch' });
    expect((error as Error).message).toContain('at "#/__proto__" ("#/properties/__proto__/type")');
    expect((error as Error).message).not.toContain('ghost');
  });
});
