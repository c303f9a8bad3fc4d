import { firstValueFrom } from 'rxjs';
import { type InputRequest, McpClient, McpClientError } from '../../../src/index.js';
import { FakeTransport } from 'rxmcp/testing';
import { checkAnswer, describeProblem } from '../../../src/client/questions/answer-check.js';
import { askHook } from '../../../src/client/questions/input-hooks.js';
import { askingServerOf, MAX_SERVER_INFO_CHARS } from '../../../src/client/questions/asking-server.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    score: { type: 'number', minimum: 0.5, maximum: 9.5 },
    ok: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    hex: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }, { const: '#0f0', title: 'Green' }] },
    pets: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['cat', 'dog', 'fish'] } },
    tags: { type: 'array', items: { anyOf: [{ const: 'a' }, { const: 'b' }] } },
  },
  required: ['name'],
};

describe('checkAnswer (2025-11-25 client/elicitation, Requested Schema)', () => {
  it('passes an answer that keeps to every rule, and fields the schema does not name', () => {
    const content = {
      name: 'Ada', email: 'ada@example.com', site: 'https://example.com/x', born: '1815-12-10', at: '2026-12-03T20:00:00Z',
      age: 36, score: 9.5, ok: false, color: 'green', hex: '#0f0', pets: ['cat', 'dog'], tags: [], extra: 1,
    };
    expect(checkAnswer(content, schema)).toBeUndefined();
  });

  it.each([
    [{}, 'name', 'is required'],
    [{ name: undefined }, 'name', 'is required'],
    [{ name: 'A' }, 'name', 'must be at least 2 characters long'],
    [{ name: 'Adalovelace' }, 'name', 'must be at most 5 characters long'],
    [{ name: 7 }, 'name', 'must be a string'],
    [{ name: 'Ada', email: 'not an address' }, 'email', 'must be in format "email"'],
    [{ name: 'Ada', site: 'example.com' }, 'site', 'must be in format "uri"'],
    [{ name: 'Ada', born: '2023-02-30' }, 'born', 'must be in format "date"'],
    [{ name: 'Ada', at: '2026-12-03 20:00' }, 'at', 'must be in format "date-time"'],
    [{ name: 'Ada', age: 3.5 }, 'age', 'must be an integer'],
    [{ name: 'Ada', age: 200 }, 'age', 'must be at most 150'],
    [{ name: 'Ada', score: 0 }, 'score', 'must be at least 0.5'],
    [{ name: 'Ada', score: Number.NaN }, 'score', 'must be a number'],
    [{ name: 'Ada', ok: 'yes' }, 'ok', 'must be a boolean'],
    [{ name: 'Ada', color: 'blue' }, 'color', 'must be one of its choices, not "blue"'],
    [{ name: 'Ada', hex: 'Red' }, 'hex', 'must be one of its choices, not "Red"'],
    [{ name: 'Ada', pets: [] }, 'pets', 'must have at least 1 choices'],
    [{ name: 'Ada', pets: ['cat', 'dog', 'fish'] }, 'pets', 'must have at most 2 choices'],
    [{ name: 'Ada', pets: ['cow'] }, 'pets', 'holds "cow", which is not one of its choices'],
    [{ name: 'Ada', tags: ['c'] }, 'tags', 'holds "c", which is not one of its choices'],
    [{ name: 'Ada', pets: 'cat' }, 'pets', 'must be an array'],
  ])('refuses %p: field %s %s', (content, field, rule) => {
    expect(checkAnswer(content as Record<string, unknown>, schema)).toEqual({ field, rule });
  });

  it('counts code points, as JSON Schema does', () => {
    expect(checkAnswer({ name: '😀😀' }, schema)).toBeUndefined();
  });

  it('does not run the server\'s pattern, and passes a format the spec does not list', () => {
    const evil = { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$', format: 'hostname' } } };
    expect(checkAnswer({ x: `${'a'.repeat(40)}!` }, evil)).toBeUndefined();
  });

  it('refuses a value for a field whose schema it cannot read (an object, nesting, no type)', () => {
    const odd = { type: 'object', properties: { deep: { type: 'object', properties: { a: { type: 'string' } } }, bare: {}, junk: 3 } };
    expect(checkAnswer({ deep: { a: 'x' } }, odd)?.rule).toBe('has type "object", which a form answer cannot have');
    expect(checkAnswer({ bare: 'x' }, odd)?.rule).toBe('has type undefined, which a form answer cannot have');
    expect(checkAnswer({ junk: 'x' }, odd)?.rule).toBe('has no schema this client can read');
  });

  describe('hostile schemas', () => {
    it('checks an answer to 10,000 properties, all required, in one pass', () => {
      const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, n) => [`f${n}`, { type: 'string' }]));
      const required = Object.keys(properties);
      const content = Object.fromEntries(required.map((field) => [field, 'x']));
      expect(checkAnswer(content, { type: 'object', properties, required })).toBeUndefined();
      delete content.f9999;
      expect(checkAnswer(content, { type: 'object', properties, required })).toEqual({ field: 'f9999', rule: 'is required' });
    });

    it('reads a schema nested 100,000 levels without descending into it', () => {
      let deep: Record<string, unknown> = { type: 'string' };
      for (let n = 0; n < 100_000; n += 1) deep = { type: 'object', properties: { a: deep } };
      expect(checkAnswer({ a: 'x' }, deep)?.rule).toBe('has type "object", which a form answer cannot have');
    });

    it('reads "__proto__" fields as fields, never as the prototype', () => {
      const hostile = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}},"required":["__proto__","constructor"]}');
      const content = JSON.parse('{"__proto__":"x"}');
      expect(checkAnswer(content, hostile)).toEqual({ field: 'constructor', rule: 'is required' });
      const withBoth = JSON.parse('{"__proto__":"x","constructor":1}');
      expect(checkAnswer(withBoth, hostile)).toEqual({ field: '__proto__', rule: 'must be an integer' });
      expect(({} as Record<string, unknown>).type).toBeUndefined();
    });

    it('checks a choice among 100,000', () => {
      const choices = Array.from({ length: 100_000 }, (_, n) => `c${n}`);
      const wide = { type: 'object', properties: { pick: { type: 'string', enum: choices }, many: { type: 'array', items: { enum: choices } } } };
      expect(checkAnswer({ pick: 'c99999', many: ['c0', 'c5'] }, wide)).toBeUndefined();
      expect(checkAnswer({ pick: 'c100000' }, wide)?.field).toBe('pick');
    });

    it('quotes a huge field name cut short', () => {
      const name = 'n'.repeat(100_000);
      const message = describeProblem({ field: name, rule: 'is required' });
      expect(message.length).toBeLessThan(300);
    });
  });
});

describe('askingServerOf: what a hook is told of the asking server', () => {
  it('keeps own string fields only, and the registry prefix', () => {
    expect(askingServerOf({ name: 'git', title: 'Git', version: '1.2', extra: 'x' }, 'git')).toEqual({ name: 'git', title: 'Git', version: '1.2', prefix: 'git' });
    expect(askingServerOf({ name: 42, title: { a: 1 }, version: ['1'] }, undefined)).toBeUndefined();
    expect(askingServerOf(Object.create({ name: 'inherited' }), 'p')).toEqual({ prefix: 'p' });
    expect(askingServerOf(undefined, undefined)).toBeUndefined();
  });

  it('cuts a huge name and replaces characters that could hide or reorder text', () => {
    const server = askingServerOf({ name: `a\u001b[2J\u202eb${'x'.repeat(1_000_000)}` }, undefined);
    expect(server?.name?.startsWith('a\ufffd[2J\ufffdb')).toBe(true);
    expect(Array.from(server?.name ?? '').length).toBe(MAX_SERVER_INFO_CHARS + 1);
  });
});

describe('a 2026-07-28 question whose accepted answer breaks the schema', () => {
  const form = {
    method: 'elicitation/create',
    params: { mode: 'form', message: 'Mail?', requestedSchema: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] } },
  };

  it('fails the call that asked with an McpClientError naming the field and the rule, and sends nothing', async () => {
    const transport = new FakeTransport()
      .on('server/discover', {
        result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mailer', version: '2' } } },
      })
      .on('tools/call', { result: { resultType: 'input_required', inputRequests: { mail: form } } });
    const warnings: string[] = [];
    const seen: unknown[] = [];
    const mcp = new McpClient({
      transport,
      probeTimeoutMs: 200,
      onWarn: (warning) => warnings.push(warning),
      onElicit: (request) => (seen.push(request.server), { action: 'accept', content: { email: 'not an address' } }),
    });
    const call = firstValueFrom(mcp.callTool('subscribe'));
    await expect(call).rejects.toBeInstanceOf(McpClientError);
    await expect(call).rejects.toThrow('field "email" must be in format "email"');
    expect(transport.requests('tools/call')).toHaveLength(1);
    expect(warnings.some((warning) => warning.includes('field "email" must be in format "email"'))).toBe(true);
    // The server as the client learned it from server/discover.
    expect(seen).toEqual([{ name: 'mailer', version: '2' }]);
    await mcp.close();
  });
});

describe('a hostile server\'s question, end to end', () => {
  it('tells the hook a bounded, clean server name and checks the answer to 10,000 properties and a "__proto__" one, polluting nothing', async () => {
    const properties = `{${Array.from({ length: 10_000 }, (_, n) => `"f${n}":{"type":"string"}`).join(',')},"__proto__":{"type":"integer"}}`;
    const form = JSON.parse(`{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":${properties},}}}`.replace(',}}}', '}}}'));
    const info = { name: `evil\u001b]0;pwned\u0007${'x'.repeat(1_000_000)}`, version: '1' };
    const transport = new FakeTransport()
      .on('server/discover', { result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': info } } })
      .on('tools/call', (request: { params?: Record<string, unknown> }) =>
        request.params?.inputResponses === undefined
          ? { result: { resultType: 'input_required', inputRequests: { q: form } } }
          : { result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } },
      );
    const seen: Array<InputRequest['server']> = [];
    const answers = [{ action: 'accept', content: { f9999: 5 } }, JSON.parse('{"action":"accept","content":{"__proto__":"x","f1":"ok"}}')];
    const mcp = new McpClient({ transport, probeTimeoutMs: 200, onElicit: (request) => (seen.push(request.server), answers.shift()) });
    await expect(firstValueFrom(mcp.callTool('t'))).rejects.toThrow('field "f9999" must be a string');
    await expect(firstValueFrom(mcp.callTool('t'))).resolves.toEqual({ content: [{ type: 'text', text: 'done' }] });
    const sent = transport.requests('tools/call').at(-1)?.params?.inputResponses as Record<string, { content: Record<string, unknown> }>;
    expect(sent.q?.content.f1).toBe('ok');
    expect(Object.getPrototypeOf(sent.q?.content)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(seen).toHaveLength(2);
    expect(seen[0]?.name?.startsWith('evil\ufffd]0;pwned\ufffdxxx')).toBe(true);
    expect(Array.from(seen[0]?.name ?? '').length).toBe(201);
    expect(seen[0]?.version).toBe('1');
    await mcp.close();
  });
});

describe('what a hook answers, as the server gets it', () => {
  const form = { method: 'elicitation/create', params: { message: '?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } };
  const ask = (answer: unknown, warnings: string[] = []) =>
    firstValueFrom(askHook(form, { onElicit: () => answer as never }, (warning) => warnings.push(warning), 'q'));

  it('sends what was checked: an answer whose JSON says otherwise (a toJSON) is declined', async () => {
    const warnings: string[] = [];
    const sly = { action: 'accept', content: { name: 'Ada' }, toJSON: () => ({ action: 'delete everything' }) };
    await expect(ask(sly, warnings)).resolves.toEqual({ action: 'decline' });
    expect(warnings).toEqual(['declined q: onElicit answered with something that is not a valid elicitation/create result']);
  });

  it('sends the JSON of an answer (own members only), without a "__proto__" member of the answer or its content', async () => {
    const sent = await ask(JSON.parse('{"action":"accept","content":{"name":"Ada","__proto__":{"admin":true}},"__proto__":{"x":1}}'));
    expect(sent).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(Object.hasOwn(sent as object, '__proto__')).toBe(false);
    await expect(ask(Object.create({ action: 'accept' }))).resolves.toEqual({ action: 'decline' });
  });

  it('declines an answer that cannot be written as JSON, saying so', async () => {
    const warnings: string[] = [];
    await expect(ask({ action: 'accept', content: { name: 10n } }, warnings)).resolves.toEqual({ action: 'decline' });
    expect(warnings[0]).toContain('cannot be written as JSON');
  });
});
