// Which HTTP transport a URL serves is settled only by an answer: a try that
// failed for another reason (nothing listening yet, a JSON-RPC refusal) is
// not remembered as "this URL serves X".
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient, McpNetworkError, McpProtocolError } from '../../src';

const everything = join(__dirname, '..', '..', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// server-everything in its HTTP+SSE mode, resolved once it listens.
function startEverythingSse(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [everything, 'sse'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)));
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('running on port')) resolve(child);
    });
  });
}

describe('finding out which HTTP transport a URL serves', () => {
  let child: ChildProcess | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    child?.kill();
    child = undefined;
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it('tries again from the start after a failure that was no answer: nothing listening, then an HTTP+SSE server', async () => {
    const port = await freePort();
    const mcp = McpClient.connectHttp({ url: `http://127.0.0.1:${port}/sse`, connectTimeoutMs: 5000 });
    try {
      await expect(firstValueFrom(mcp.describe())).rejects.toBeInstanceOf(McpNetworkError);
      child = await startEverythingSse(port);
      const description = await firstValueFrom(mcp.describe());
      expect(description.wire).toBe('sse');
      const result = await firstValueFrom(mcp.callTool('echo', { message: 'late' }));
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: late' }]);
    } finally {
      await mcp.close();
    }
  }, 30000);

  it('takes a JSON-RPC refusal of initialize as the answer of a Streamable HTTP server: no GET follows', async () => {
    const seen: string[] = [];
    server = createServer((request, response) => {
      seen.push(request.method ?? '');
      request.resume();
      request.on('end', () => {
        response.writeHead(400, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no, thank you' } }));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const mcp = McpClient.connectHttp({ url: `http://127.0.0.1:${port}/mcp` });
    try {
      const failure = await firstValueFrom(mcp.describe()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(McpProtocolError);
      expect((failure as Error).message).toContain('no, thank you');
      expect(seen).not.toContain('GET');
    } finally {
      await mcp.close();
    }
  }, 30000);
});
