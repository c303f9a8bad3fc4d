import { firstValueFrom } from 'rxjs';
import { McpClient, McpProtocolError, StdioTransport } from '../../src/index.js';
import { fixture } from '../support/servers.js';
import { spyOn } from '../support/spy-transport.js';

// Servers that declare tools.listChanged and abuse the promise
// (list-changed-hostile-server.mjs): keeping lists until they change must
// not loosen a bound, nor be granted on a declaration that is not `true`.

function connect(...args: string[]) {
  const spy = spyOn(new StdioTransport(fixture('list-changed-hostile-server.mjs', ...args)));
  const mcp = new McpClient({ transport: spy.transport, maxListPages: 5 });
  const lists = () => spy.sent.filter((method) => method === 'tools/list').length;
  return { mcp, lists };
}

/** toolsForLlm then a one-call batch, three times: the tools/list requests each cost. */
async function threeTurns(mcp: McpClient, lists: () => number): Promise<number[]> {
  const per: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = lists();
    await mcp.toolsForLlm();
    await mcp.executeToolCalls([{ id: 'call_1', function: { name: 'echo', arguments: {} } }]);
    per.push(lists() - before);
  }
  return per;
}

describe('a server that declares listChanged and abuses it', () => {
  let mcp: McpClient;
  afterEach(() => mcp.close());

  it('still ends a list whose pages never end at maxListPages, every read, and keeps nothing', async () => {
    const server = connect('--endless');
    mcp = server.mcp;
    for (let read = 1; read <= 3; read++) {
      await expect(firstValueFrom(mcp.listTools())).rejects.toBeInstanceOf(McpProtocolError);
      expect(server.lists()).toBe(read * 5);
    }
  });

  it('never keeps a list it announces a change of while answering, and lists at most once a read', async () => {
    const server = connect('--change-in-list');
    mcp = server.mcp;
    expect(await threeTurns(mcp, server.lists)).toEqual([2, 2, 2]);
  });

  it.each([
    ['the string "true"', '{"listChanged":"true"}'],
    ['1', '{"listChanged":1}'],
    ['an inherited member', '{"__proto__":{"listChanged":true}}'],
    ['a list', '[true]'],
  ])('takes listChanged as %s for no promise, and lists every read', async (_label, capability) => {
    const server = connect('--capability', capability);
    mcp = server.mcp;
    expect(await threeTurns(mcp, server.lists)).toEqual([2, 2, 2]);
  });

  it('keeps the list of the same server when it declares listChanged: true', async () => {
    const server = connect();
    mcp = server.mcp;
    expect(await threeTurns(mcp, server.lists)).toEqual([1, 0, 0]);
  });
});
