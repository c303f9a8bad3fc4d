import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { modernServer } from '../support/servers.js';

// What a call waiting for its answer keeps alive is what every scavenge
// copies while a thousand are in flight: it is held to a bound here.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

async function heapUsed(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

describe('calls in flight', () => {
  it('a pending callTool keeps less than 2,150 bytes alive in the client (its call, bounds and exchange as objects, not nested closures)', async () => {
    const mcp = McpClient.connectStdio(modernServer);
    try {
      await firstValueFrom(mcp.callTool('echo', { text: 'warm' }));
      const count = 2000;
      // Warmed: the first calls settle shapes and code, not per-call state.
      const warm = Array.from({ length: 50 }, () => firstValueFrom(mcp.callTool('sleep', { ms: 60_000 })).catch(() => undefined));
      const before = await heapUsed();
      const held = Array.from({ length: count }, () => firstValueFrom(mcp.callTool('sleep', { ms: 60_000 })).catch(() => undefined));
      // Until the server has read them, the requests also wait in the pipe's
      // write buffer, which is not the calls' to keep: the least of a few
      // readings a moment apart is taken (on a busy machine the first came
      // out at twice the rest).
      let after = Infinity;
      for (let reading = 0; reading < 4; reading++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        after = Math.min(after, await heapUsed());
      }
      const perCall = (after - before) / count;
      expect(held).toHaveLength(count);
      expect(warm).toHaveLength(50);
      // 1.5–1.8 KB with the transport's share; nested closures per layer made it 2.5 KB.
      expect(perCall).toBeLessThan(2_150);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
