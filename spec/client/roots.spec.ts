import { BehaviorSubject, firstValueFrom, Subject } from 'rxjs';
import { McpClient, McpClientError } from '../../src/index.js';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import { MAX_ROOTS, rootProblem } from '../../src/client/roots.js';
import { FakeTransport } from 'rxmcp/testing';
import { eventually } from '../support/servers.js';

// The roots option, notifyRootsChanged and the checks every root passes, on
// a scripted wire: what is declared, sent and answered. The same behaviour
// against real servers is in spec/integration/roots.spec.ts.

type R = { uri: string; name?: string };
const A: R = { uri: 'file:///work/a', name: 'A' };
const B: R = { uri: 'file:///work/b', name: 'B' };

const changed = (transport: FakeTransport) => transport.sent.filter((m) => 'method' in m && m.method === 'notifications/roots/list_changed').length;

/** Pushes a server's roots/list and waits for the client's answer. */
async function listRoots(transport: FakeTransport, id: string): Promise<JsonRpcMessage & { result?: { roots?: unknown[] }; error?: unknown }> {
  transport.push({ jsonrpc: '2.0', id, method: 'roots/list' });
  let answer: JsonRpcMessage | undefined;
  await eventually(() => (answer = transport.sent.find((m) => 'id' in m && m.id === id && !('method' in m))) !== undefined);
  return answer as never;
}

async function legacyClient(options: Record<string, unknown>) {
  const transport = new FakeTransport().legacy();
  const warnings: string[] = [];
  const mcp = new McpClient({ transport, era: 'legacy', onWarn: (w) => warnings.push(w), ...options });
  await firstValueFrom(mcp.describe());
  return { transport, mcp, warnings };
}

describe('2025-11-25 client/roots, Capabilities', () => {
  it('declares roots with listChanged for the roots option, a list or an Observable', () => {
    expect(new McpClient({ transport: new FakeTransport(), roots: [A] }).declaredCapabilities).toEqual({ roots: { listChanged: true } });
    expect(new McpClient({ transport: new FakeTransport(), roots: new Subject<typeof A[]>() }).declaredCapabilities).toEqual({ roots: { listChanged: true } });
  });

  it('declares roots with listChanged for onListRoots, since notifyRootsChanged can announce a change', () => {
    expect(new McpClient({ transport: new FakeTransport(), onListRoots: () => ({ roots: [] }) }).declaredCapabilities).toEqual({ roots: { listChanged: true } });
  });

  it('keeps clientCapabilities as given, and then sends no notification it did not declare', async () => {
    const { transport, mcp } = await legacyClient({ onListRoots: () => ({ roots: [A] }), clientCapabilities: { roots: {} } });
    expect(transport.requests('initialize')[0]?.params?.capabilities).toEqual({ roots: {} });
    mcp.notifyRootsChanged();
    expect(changed(transport)).toBe(0);
  });

  it('refuses roots beside onListRoots: both would answer roots/list', () => {
    expect(() => new McpClient({ transport: new FakeTransport(), roots: [A], onListRoots: () => ({ roots: [] }) })).toThrow(McpClientError);
    expect(() => new McpClient({ transport: new FakeTransport(), roots: [A], onListRoots: () => ({ roots: [] }) })).toThrow(/roots and onListRoots/);
  });

  it('refuses a roots option that is neither a list nor an Observable', () => {
    expect(() => new McpClient({ transport: new FakeTransport(), roots: 'file:///work' as never })).toThrow('option roots must be a list of roots');
  });
});

describe('2025-11-25 client/roots, Listing Roots', () => {
  it('answers roots/list with the list given, copied when the client was made', async () => {
    const list = [{ ...A }];
    const { transport } = await legacyClient({ roots: list });
    list[0]!.uri = 'file:///elsewhere';
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [A] });
  });

  it("answers with an Observable's latest list, and [] before its first", async () => {
    const roots = new Subject<Array<typeof A>>();
    const { transport } = await legacyClient({ roots });
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [] });
    roots.next([A]);
    roots.next([A, B]);
    expect((await listRoots(transport, 'q2')).result).toEqual({ roots: [A, B] });
  });
});

describe('2025-11-25 client/roots, Root List Changes', () => {
  it('sends notifications/roots/list_changed for each new, different list once the server has read the last', async () => {
    const roots = new BehaviorSubject<R[]>([A]);
    const { transport } = await legacyClient({ roots });
    roots.next([B]);
    expect(changed(transport)).toBe(1);
    await listRoots(transport, 'q1');
    roots.next([B]); // the same list: nothing changed
    expect(changed(transport)).toBe(1);
    roots.next([A]);
    expect(changed(transport)).toBe(2);
  });

  it('notifyRootsChanged sends it for onListRoots, after the handshake only', async () => {
    const transport = new FakeTransport().legacy();
    const mcp = new McpClient({ transport, era: 'legacy', onListRoots: () => ({ roots: [A] }) });
    mcp.notifyRootsChanged();
    expect(transport.sent).toEqual([]);
    await firstValueFrom(mcp.describe());
    mcp.notifyRootsChanged();
    expect(changed(transport)).toBe(1);
    const initialized = transport.sent.findIndex((m) => 'method' in m && m.method === 'notifications/initialized');
    const notice = transport.sent.findIndex((m) => 'method' in m && m.method === 'notifications/roots/list_changed');
    expect(initialized).toBeGreaterThanOrEqual(0);
    expect(notice).toBeGreaterThan(initialized);
  });

  it('sends nothing to a 2026-07-28 server, which asks for roots in each request (changelog: the notification is removed)', async () => {
    const transport = new FakeTransport().modern();
    const roots = new BehaviorSubject<R[]>([A]);
    const mcp = new McpClient({ transport, roots });
    await firstValueFrom(mcp.describe());
    roots.next([B]);
    mcp.notifyRootsChanged();
    expect(changed(transport)).toBe(0);
  });

  it('stops following the Observable on close()', async () => {
    const roots = new BehaviorSubject<R[]>([A]);
    const { mcp } = await legacyClient({ roots });
    await mcp.close();
    expect(roots.observed).toBe(false);
  });
});

describe('2025-11-25 client/roots, Data Types and Security Considerations', () => {
  const refused: Array<[string, unknown]> = [
    ['an http: URI', { uri: 'http://example.com/work' }],
    ['a javascript: URI', { uri: 'javascript:alert(1)' }],
    ['a bare path', { uri: '/home/user/work' }],
    ['a file URI with a newline', { uri: 'file:///work/a\nb' }],
    ['a file URI with an escape character', { uri: 'file:///work/\u001b[31mred' }],
    ['a file URI with an encoded control character', { uri: 'file:///work/%00x' }],
    ['a file URI with a .. segment', { uri: 'file:///work/../etc' }],
    ['a file URI with an encoded .. segment', { uri: 'file:///work/%2e%2E/etc' }],
    ['a file URI with an encoded slash', { uri: 'file:///work/a%2Fb' }],
    ['a file URI with a query', { uri: 'file:///work?x=1' }],
    ['a malformed percent-escape', { uri: 'file:///work/%zz' }],
    ['a URI too long', { uri: `file:///${'a'.repeat(5000)}` }],
    ['a name with a bidi override', { uri: 'file:///work', name: 'a\u202eb' }],
    ['a name that is no string', { uri: 'file:///work', name: 7 }],
    ['no uri', { name: 'x' }],
    ['a uri only inherited', Object.create({ uri: 'file:///work' })],
  ];

  it.each(refused)('Clients MUST validate all root URIs: refuses %s', (_what, root) => {
    expect(rootProblem(root)).toEqual(expect.any(String));
    expect(() => new McpClient({ transport: new FakeTransport(), roots: [root as never] })).toThrow(McpClientError);
  });

  it('accepts plain file:// roots, with a host, spaces encoded and a name', () => {
    for (const uri of ['file:///home/user/projects/myproject', 'file://localhost/srv/a', 'file:///C:/Users/me/My%20Project', 'file:///']) {
      expect(rootProblem({ uri, name: 'n' })).toBeUndefined();
    }
  });

  it('says which root was refused and why', () => {
    expect(() => new McpClient({ transport: new FakeTransport(), roots: [A, { uri: 'http://example.com/' }] })).toThrow(
      'option roots: root 1 "http://example.com/" is not a file:// URI (roots must be file:// URIs)',
    );
  });

  it('an Observable list with a non-file root is not offered: onWarn says why, the previous list stays', async () => {
    const roots = new BehaviorSubject<Array<{ uri: string }>>([A]);
    const { transport, warnings } = await legacyClient({ roots });
    roots.next([B, { uri: 'javascript:alert(1)' }]);
    expect(warnings.join('\n')).toContain('"javascript:alert(1)" is not a file:// URI');
    expect(changed(transport)).toBe(0);
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [A] });
  });

  it('an Observable that fails keeps its last list offered, with a warning', async () => {
    const roots = new Subject<Array<{ uri: string }>>();
    const { transport, warnings } = await legacyClient({ roots });
    roots.next([A]);
    roots.error(new Error('watcher died'));
    expect(warnings.join('\n')).toContain('watcher died');
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [A] });
  });

  it('leaves out of an onListRoots answer the roots that fail the checks, with a warning', async () => {
    const { transport, warnings } = await legacyClient({
      onListRoots: () => ({ roots: [A, { uri: 'http://example.com/' }, { uri: 'file:///x/\u0007' }, B] }),
    });
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [A, B] });
    expect(warnings.join('\n')).toContain('left out 2 root(s) onListRoots gave');
  });

  it('checks the roots a call\'s own input hook gives too (2026-07-28 input round)', async () => {
    const transport = new FakeTransport().modern();
    transport.on('tools/call', (_request, previous) =>
      previous === 0
        ? { result: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } } }
        : { result: { content: [{ type: 'text', text: 'ok' }] } },
    );
    const mcp = new McpClient({ transport });
    await firstValueFrom(mcp.callTool('t', {}, { input: { onListRoots: () => ({ roots: [{ uri: 'https://example.com/' }, A] }) } }));
    const retried = transport.requests('tools/call')[1];
    expect((retried?.params as { inputResponses?: unknown }).inputResponses).toEqual({ r: { roots: [A] } });
  });
});

describe('hostile roots', () => {
  it('a flood of 10,000 different lists in one tick sends one notification', async () => {
    const roots = new BehaviorSubject<R[]>([A]);
    const { transport } = await legacyClient({ roots });
    for (let n = 0; n < 10_000; n += 1) roots.next([{ uri: `file:///work/${n}` }]);
    expect(changed(transport)).toBe(1);
    // The server reads once and gets the last list; the next change is announced again.
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [{ uri: 'file:///work/9999' }] });
    roots.next([B]);
    expect(changed(transport)).toBe(2);
  });

  it('refuses a list of 100,000 roots: at construction, or from the Observable with the previous list kept', async () => {
    const many = Array.from({ length: 100_000 }, (_, n) => ({ uri: `file:///r/${n}` }));
    expect(() => new McpClient({ transport: new FakeTransport(), roots: many })).toThrow(`holds 100000 roots; at most ${MAX_ROOTS}`);
    const roots = new BehaviorSubject<R[]>([A]);
    const { transport, warnings } = await legacyClient({ roots });
    roots.next(many);
    expect(warnings.join('\n')).toContain('holds 100000 roots');
    expect((await listRoots(transport, 'q1')).result).toEqual({ roots: [A] });
  });

  it('cuts an onListRoots answer of 100,000 roots to the first 1000, with a warning', async () => {
    const many = Array.from({ length: 100_000 }, (_, n) => ({ uri: `file:///r/${n}` }));
    const { transport, warnings } = await legacyClient({ onListRoots: () => ({ roots: many }) });
    const answer = await listRoots(transport, 'q1');
    expect(answer.result?.roots).toHaveLength(MAX_ROOTS);
    expect(warnings.join('\n')).toContain(`offered the first ${MAX_ROOTS} of the 100000 roots`);
  });

  it('a notifyRootsChanged flood sends one notification until the server reads again', async () => {
    const { transport, mcp } = await legacyClient({ onListRoots: () => ({ roots: [A] }) });
    for (let n = 0; n < 10_000; n += 1) mcp.notifyRootsChanged();
    expect(changed(transport)).toBe(1);
  });
});
