import { firstValueFrom, type Observable } from 'rxjs';
import { McpClient, McpOutputSchemaError } from '../../src/index.js';
import { fixture } from '../support/servers.js';

// outputSchemas in each JSON Schema dialect MCP names, from a server built on
// the official SDK (v2), in both eras: each schema is read in the dialect its
// `$schema` declares (2020-12 when it declares none), so the words of another
// dialect change nothing, and a dialect the client does not know fails closed.

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
});

const outcome = (call: Observable<unknown>): Promise<unknown> =>
  firstValueFrom(call).then(
    () => 'passes',
    (error: unknown) => (error instanceof McpOutputSchemaError ? `${error.problem}: ${error.violation}` : error),
  );

describe.each([
  ['2026-07-28', {}],
  ['2025-11-25', { era: 'legacy' as const }],
])('outputSchema dialects, %s', (version, eraOption) => {
  const open = async (warnings: string[] = []): Promise<McpClient> => {
    const mcp = McpClient.connectStdio({ ...fixture('dialects-server.mjs'), ...eraOption, onWarn: (message) => warnings.push(message) });
    clients.push(mcp);
    expect((await firstValueFrom(mcp.describe())).protocolVersion).toBe(version);
    await firstValueFrom(mcp.listTools());
    return mcp;
  };
  const check = (mcp: McpClient, tool: string, value: unknown) => outcome(mcp.callTool(tool, { value }));

  it('2025-11-25 basic, Schema Dialect: reads a draft-07 outputSchema as draft-07 (items list, additionalItems, dependencies, definitions)', async () => {
    const mcp = await open();
    expect(await check(mcp, 'draft-07', { pair: ['a', 1], id: 3, card: 1, billing: 'x' })).toBe('passes');
    expect(await check(mcp, 'draft-07', { pair: ['a', 1, 'extra'] })).toMatch(/^mismatch: at "#\/pair\/2"/);
    expect(await check(mcp, 'draft-07', { pair: [1, 'a'] })).toMatch(/^mismatch: at "#\/pair\/0"/);
    expect(await check(mcp, 'draft-07', { card: 1 })).toMatch(/^mismatch: .*dependencies/);
    expect(await check(mcp, 'draft-07', { id: 'x' })).toMatch(/^mismatch: at "#\/id" .*integer/);
    // prefixItems and dependentRequired are no draft-07 keywords.
    expect(await check(mcp, 'draft-07', { loose: ['not a number'], coupon: 1 })).toBe('passes');
  });

  it('2025-11-25 basic, Schema Dialect: reads a 2019-09 outputSchema as 2019-09 (items list, dependentRequired, $defs; no dependencies, no prefixItems)', async () => {
    const mcp = await open();
    expect(await check(mcp, 'draft-2019-09', { pair: ['a', 1], id: 3, coupon: 1, code: 'c' })).toBe('passes');
    expect(await check(mcp, 'draft-2019-09', { pair: ['a', 1, 'extra'] })).toMatch(/^mismatch: at "#\/pair\/2"/);
    expect(await check(mcp, 'draft-2019-09', { coupon: 1 })).toMatch(/^mismatch: at "#" .*has \\"coupon\\" but does not have \\"code\\"/);
    expect(await check(mcp, 'draft-2019-09', { id: 1.5 })).toMatch(/^mismatch: at "#\/id"/);
    expect(await check(mcp, 'draft-2019-09', { loose: ['not a number'], card: 1 })).toBe('passes');
  });

  it.each(['draft-2020-12', 'no-dialect'])(
    '2025-11-25 basic, Schema Dialect: reads %s as 2020-12 (prefixItems, items false, dependentRequired, $defs; no dependencies, no additionalItems)',
    async (tool) => {
      const mcp = await open();
      expect(await check(mcp, tool, { pair: ['a', 1], id: 3, coupon: 1, code: 'c' })).toBe('passes');
      expect(await check(mcp, tool, { pair: ['a', 1, 'extra'] })).toMatch(/^mismatch: at "#\/pair\/2"/);
      expect(await check(mcp, tool, { pair: [1] })).toMatch(/^mismatch: at "#\/pair\/0"/);
      expect(await check(mcp, tool, { coupon: 1 })).toMatch(/^mismatch: at "#" .*has \\"coupon\\" but does not have \\"code\\"/);
      expect(await check(mcp, tool, { id: 'x' })).toMatch(/^mismatch: at "#\/id" .*integer/);
      expect(await check(mcp, tool, { loose: [1, 2], card: 1 })).toBe('passes');
    },
  );

  it('2025-11-25 basic, Schema Dialect: MUST handle an unsupported dialect by returning an error saying it is not supported (fails closed, warns once per tool)', async () => {
    const warnings: string[] = [];
    const mcp = await open(warnings);
    await firstValueFrom(mcp.listTools());
    const draft04 = await check(mcp, 'draft-04', { n: 'not a number' });
    expect(draft04).toBe(
      'unchecked: its outputSchema declares a JSON Schema dialect this client does not support ' +
        '($schema is "http://json-schema.org/draft-04/schema#"; supported: draft-07, 2019-09, 2020-12)',
    );
    // Even a value the schema would take is withheld: the client cannot say so.
    expect(await check(mcp, 'draft-04', { n: 1 })).toMatch(/^unchecked: .*does not support/);
    expect(await check(mcp, 'made-up', {})).toMatch(/^unchecked: .*"https:\/\/example.com\/my-dialect"/);
    const dialectWarnings = warnings.filter((warning) => warning.includes('dialect'));
    expect(dialectWarnings).toHaveLength(2);
    expect(dialectWarnings[0]).toContain('tool "draft-04"');
    expect(dialectWarnings[1]).toContain('tool "made-up"');
  });

  it('2025-11-25 basic, Schema Dialect: a 2020-12 schema giving items a list is not valid 2020-12, so its results are not checked to a verdict', async () => {
    const mcp = await open();
    expect(await check(mcp, 'list-items-2020', { pair: ['a'] })).toBe(
      'unchecked: its outputSchema gives items a list, which JSON Schema 2020-12 does not allow (prefixItems is the 2020-12 form)',
    );
  });
});
