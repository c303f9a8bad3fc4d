import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient, McpServerGoneError, StdioTransport } from '../../src/index.js';
import { eventually, fixture, isAlive } from '../support/servers.js';

describe('the server\'s process tree', () => {
  it('is gone after close(), grandchildren of a wrapper included', async () => {
    const stderr: string[] = [];
    const transport = new StdioTransport({ ...fixture('wrapper-server.mjs'), killGraceMs: 200, onStderr: (line) => stderr.push(line) });
    const mcp = new McpClient({ transport, probeTimeoutMs: 10000 });
    const pending = firstValueFrom(mcp.describe()).catch(() => undefined);
    await eventually(() => stderr.some((line) => line.startsWith('grandchild ')));
    const grandchild = Number(stderr.find((line) => line.startsWith('grandchild '))?.split(' ')[1]);
    const wrapper = transport.pid as number;
    expect(isAlive(wrapper) && isAlive(grandchild)).toBe(true);
    await mcp.close();
    await pending;
    await eventually(() => !isAlive(wrapper) && !isAlive(grandchild), 3000);
  });

  it('is cleaned up when the server itself exits but leaves a child behind', async () => {
    const stderr: string[] = [];
    const transport = new StdioTransport({ ...fixture('wrapper-server.mjs'), killGraceMs: 200, onStderr: (line) => stderr.push(line) });
    const mcp = new McpClient({ transport, probeTimeoutMs: 10000 });
    const pending = firstValueFrom(mcp.describe()).catch((error: unknown) => error);
    await eventually(() => stderr.some((line) => line.startsWith('grandchild ')));
    const grandchild = Number(stderr.find((line) => line.startsWith('grandchild '))?.split(' ')[1]);
    process.kill(transport.pid as number, 'SIGKILL');
    expect(await pending).toBeInstanceOf(McpServerGoneError);
    expect(isAlive(grandchild)).toBe(true);
    await mcp.close();
    await eventually(() => !isAlive(grandchild), 3000);
  });

  it('is cleaned up when this process exits without close(), after the server itself exited and left a child behind', async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'support', 'exit-unclosed-run.ts')], { cwd: join(__dirname, '..', '..'), timeout: 30_000 }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    const grandchild = Number(/grandchild (\d+)/.exec(stdout)?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    await eventually(() => !isAlive(grandchild), 3000);
  }, 40_000);
});
