import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/client/mcp-client.js';
import { Pins } from '../../src/providers/pins/pins.js';
import { MemoryPins } from '../../src/providers/pins/pins-store.js';
import { Registry } from '../../src/providers/registry.js';

// A real server of 5,000 tools behind a Registry and Pins. Pins reads every
// tool's declaration; each read used to read the whole list again (from the
// cache, but 5,000 walks of 5,000 tools: half a minute a listing).
const fixture = join(__dirname, '..', 'fixtures', 'many-tools-server.mjs');

describe('Pins over a server of 5,000 tools', () => {
  it('pins them all reading the list a couple of times a listing, not once per tool', async () => {
    const mcp = McpClient.connectStdio({ command: process.execPath, args: [fixture, '5000'] });
    const reads = jest.spyOn(mcp, 'listTools');
    const pins = new Pins({ provider: new Registry().add(mcp, { prefix: 'big' }), store: new MemoryPins() });
    const lists = async (): Promise<number> => Number((await firstValueFrom(mcp.callTool('lists'))).content[0]?.text);
    try {
      expect(await pins.toolsForLlm()).toHaveLength(5001);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(3);
      const afterFirst = await lists();
      expect(afterFirst).toBeLessThanOrEqual(3);
      expect(await pins.toolsForLlm()).toHaveLength(5001);
      expect((await lists()) - afterFirst).toBeLessThanOrEqual(3);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
