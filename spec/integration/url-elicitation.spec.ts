import { firstValueFrom, Observable, take, toArray } from 'rxjs';
import {
  InputBroker,
  type InputRequest,
  McpClient,
  McpProtocolError,
  McpTimeoutError,
  McpUrlElicitationRequiredError,
} from '../../src/index.js';
import { everythingServer, fixture } from '../support/servers.js';

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');
const urlServer = fixture('url-elicitation-server.mjs');
const PAGE = 'https://auth.example/connect?session=abc';

describe('URL-mode elicitation against server-everything (2025-11-25, request path)', () => {
  const clients: McpClient[] = [];
  const connect = (options: { onElicitUrl?: (question: InputRequest) => unknown; onWarn?: (message: string) => void } = {}) => {
    const mcp = McpClient.connectStdio({ ...everythingServer, ...options });
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('is offered the URL tool, and the hook gets the url, message and elicitationId; accept reaches the tool', async () => {
    const asked: InputRequest[] = [];
    const mcp = connect({ onElicitUrl: (question) => (asked.push(question), { action: 'accept' }) });
    expect(mcp.declaredCapabilities.elicitation).toEqual({ url: {} });
    const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
    expect(names).toContain('trigger-url-elicitation');
    const result = await firstValueFrom(
      mcp.callTool('trigger-url-elicitation', { url: 'https://example.com/pay?id=7', message: 'Pay the invoice', elicitationId: 'el-1' }),
    );
    expect(text(result)).toContain('User completed the URL elicitation flow');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.method).toBe('elicitation/create');
    expect(asked[0]?.params).toEqual({ mode: 'url', message: 'Pay the invoice', url: 'https://example.com/pay?id=7', elicitationId: 'el-1' });
  });

  it('an InputBroker UI sees a URL question as kind "url" and answers it', async () => {
    const broker = new InputBroker();
    const mcp = connect({ onElicitUrl: broker.onElicitUrl });
    const shown: string[] = [];
    broker.questions$.subscribe((question) => {
      shown.push(`${question.kind} ${new URL(String(question.params.url)).host}`);
      question.respond({ action: 'accept' });
    });
    const result = await firstValueFrom(mcp.callTool('trigger-url-elicitation', { url: 'https://pay.example/i/9', elicitationId: 'el-b' }));
    expect(text(result)).toContain('User completed the URL elicitation flow');
    expect(shown).toEqual(['url pay.example']);
  });

  it('a decline reaches the tool result', async () => {
    const mcp = connect({ onElicitUrl: () => ({ action: 'decline' }) });
    const result = await firstValueFrom(mcp.callTool('trigger-url-elicitation', { url: 'https://example.com/', elicitationId: 'el-2' }));
    expect(text(result)).toContain('User declined to open the URL');
  });

  it('without onElicitUrl the capability is not declared and the tool is not offered', async () => {
    const mcp = connect();
    expect(mcp.declaredCapabilities.elicitation).toBeUndefined();
    const names = (await firstValueFrom(mcp.listTools())).map((tool) => tool.name);
    expect(names).not.toContain('trigger-url-elicitation');
  });

  describe('2025-11-25 client/elicitation, Safe URL Handling', () => {
    const hostile: Array<[string, string]> = [
      ['a javascript: URL', 'javascript:alert(1)'],
      ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
      ['plain http to a public host', 'http://example.com/login'],
      ['a URL with a user name and password', 'https://bank.example:secret@evil.example/'],
    ];
    it.each(hostile)('declines %s without asking the hook, and says why', async (_label, url) => {
      const asked: unknown[] = [];
      const warnings: string[] = [];
      const mcp = connect({ onElicitUrl: (question) => (asked.push(question), { action: 'accept' }), onWarn: (message) => warnings.push(message) });
      const result = await firstValueFrom(mcp.callTool('trigger-url-elicitation', { url, elicitationId: 'el-h' }));
      expect(text(result)).toContain('User declined to open the URL');
      expect(asked).toEqual([]);
      expect(warnings.some((warning) => warning.includes('URL elicitation'))).toBe(true);
    });

    it('declines a message longer than the bound without asking the hook', async () => {
      const asked: unknown[] = [];
      const warnings: string[] = [];
      const mcp = connect({ onElicitUrl: (question) => (asked.push(question), { action: 'accept' }), onWarn: (message) => warnings.push(message) });
      const result = await firstValueFrom(mcp.callTool('trigger-url-elicitation', { url: 'https://example.com/', message: 'm'.repeat(100_000), elicitationId: 'el-m' }));
      expect(text(result)).toContain('User declined to open the URL');
      expect(asked).toEqual([]);
      expect(warnings.some((warning) => warning.includes('message is longer'))).toBe(true);
    });
  });
});

describe('URL elicitation against the SDK v2 fixture', () => {
  const clients: McpClient[] = [];
  const connect = (options: Record<string, unknown> = {}, era: 'legacy' | 'modern' = 'legacy') => {
    const mcp = McpClient.connectStdio({ ...urlServer, era, ...options });
    clients.push(mcp);
    return mcp;
  };
  afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));

  it('2025-11-25 client/elicitation, URL Elicitation Required Error: without onElicitUrl a -32042 fails the call with McpUrlElicitationRequiredError', async () => {
    const mcp = connect({ onElicit: () => ({ action: 'decline' }) });
    const failure = await firstValueFrom(mcp.callTool('legacy-page', { token: 'plain' })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((failure as McpUrlElicitationRequiredError).code).toBe(-32042);
    expect((failure as McpUrlElicitationRequiredError).elicitations).toEqual([{ url: PAGE, message: 'Connect your account', elicitationId: 'page-plain' }]);
  });

  it('2025-11-25 client/elicitation, Completion Notifications for URL Mode Elicitation: asks, waits for the completion, retries once', async () => {
    const asked: InputRequest[] = [];
    let mcp: McpClient;
    // The hook answers only after the completion has arrived: the call must not have missed it.
    const onElicitUrl = (question: InputRequest) => {
      asked.push(question);
      return firstValueFrom(mcp.elicitationComplete$).then(() => ({ action: 'accept' }));
    };
    mcp = connect({ onElicitUrl });
    const result = await firstValueFrom(mcp.callTool('legacy-page', { token: 'ok' }));
    expect(text(result)).toBe('done after page-ok');
    expect(asked.map((question) => question.params)).toEqual([{ mode: 'url', message: 'Connect your account', url: PAGE, elicitationId: 'page-ok' }]);
  });

  it('follows a -32042 with a call\'s own input.onElicitUrl, in place of the client\'s', async () => {
    // The client's hook declares elicitation.url (a server sends completions only then) and would decline.
    const mcp = connect({ onElicitUrl: () => ({ action: 'decline' }) });
    const seen: string[] = [];
    const completions = firstValueFrom(mcp.elicitationComplete$);
    const result = await firstValueFrom(
      mcp.callTool('legacy-page', { token: 'own' }, { input: { onElicitUrl: (question) => (seen.push(String(question.params.url)), { action: 'accept' }) } }),
    );
    expect(text(result)).toBe('done after page-own');
    expect(seen).toEqual([PAGE]);
    expect(await completions).toEqual({ elicitationId: 'page-own' });
  });

  it.each([
    ['declined', 'decline'],
    ['cancelled', 'cancel'],
  ])('2025-11-25 client/elicitation, URL Elicitation Required Error: a page %s fails the call and says so', async (word, action) => {
    const mcp = connect({ onElicitUrl: () => ({ action }) });
    const failure = await firstValueFrom(mcp.callTool('legacy-page', { token: `no-${action}` })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((failure as Error).message).toContain(word);
  });

  it('a second -32042 on the retry fails the call', async () => {
    let asked = 0;
    const mcp = connect({ onElicitUrl: () => (asked++, { action: 'accept' }) });
    const failure = await firstValueFrom(mcp.callTool('legacy-page', { token: 'again', variant: 'again' })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((failure as Error).message).toContain('again');
    expect(asked).toBe(1);
  });

  it('2025-11-25 client/elicitation, Safe URL Handling: a -32042 page with a javascript: URL is declined without asking', async () => {
    let asked = 0;
    const warnings: string[] = [];
    const mcp = connect({ onElicitUrl: () => (asked++, { action: 'accept' }), onWarn: (message: string) => warnings.push(message) });
    const failure = await firstValueFrom(mcp.callTool('legacy-page', { token: 'bad', variant: 'bad-url' })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((failure as Error).message).toContain('declined');
    expect(asked).toBe(0);
    expect(warnings.some((warning) => warning.includes('scheme javascript:'))).toBe(true);
  });

  it('hostile: a -32042 naming 10,000 pages fails closed as a plain McpProtocolError, with nothing asked', async () => {
    let asked = 0;
    const mcp = connect({ onElicitUrl: () => (asked++, { action: 'accept' }) });
    const failure = await firstValueFrom(mcp.callTool('legacy-page', { token: 'many', variant: 'many' })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpProtocolError);
    expect(failure).not.toBeInstanceOf(McpUrlElicitationRequiredError);
    expect((failure as Error).message).toContain('10000 elicitations');
    expect(asked).toBe(0);
  });

  it('hostile: completions for an unknown id or malformed do not let the call retry; its budget ends it', async () => {
    const mcp = connect({ onElicitUrl: () => ({ action: 'accept' }) });
    // Started first, so that the budget below is spent waiting, not starting the server.
    await firstValueFrom(mcp.listTools());
    const heard = firstValueFrom(mcp.elicitationComplete$.pipe(take(1), toArray()));
    const failure = await firstValueFrom(mcp.callTool('legacy-page', { token: 'unknown', variant: 'unknown' }, { timeoutMs: 1500 })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpTimeoutError);
    // The malformed ones (a number, 10,000 characters, none) never reach the stream.
    expect(await heard).toEqual([{ elicitationId: 'nobody' }]);
  });

  it('unsubscribing while the hook is asked cancels the hook', async () => {
    let cancelled = false;
    let resolveAsked: () => void = () => undefined;
    const askedOnce = new Promise<void>((resolve) => (resolveAsked = resolve));
    const mcp = connect({
      onElicitUrl: () =>
        new Observable(() => {
          resolveAsked();
          return () => (cancelled = true);
        }),
    });
    const subscription = mcp.callTool('legacy-page', { token: 'gone' }).subscribe({ error: () => undefined });
    await askedOnce;
    subscription.unsubscribe();
    expect(cancelled).toBe(true);
  });

  it('2026-07-28 client/elicitation: a URL question in an input_required round reaches onElicitUrl without an elicitationId', async () => {
    const asked: InputRequest[] = [];
    const mcp = connect({ onElicitUrl: (question: InputRequest) => (asked.push(question), { action: 'accept' }) }, 'modern');
    const result = await firstValueFrom(mcp.callTool('modern-page'));
    expect(text(result)).toBe('action=accept');
    expect(asked.map((question) => [question.key, question.params])).toEqual([['page', { mode: 'url', message: 'Sign the form', url: PAGE }]]);
  });
});
