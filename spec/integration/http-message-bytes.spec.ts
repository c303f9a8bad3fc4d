import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import type { FetchLike, FetchResponse } from '../../src/http/fetch-like.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// maxMessageBytes counts the bytes of UTF-8 a server sends over HTTP, as it
// does on stdio, whichever fetch brought them: answers of three-byte
// characters (http-faults.mjs 'wide-text' as a JSON body, 'wide-event' as one
// SSE event) are within the limit in characters and over it in bytes.

// A fetch whose bodies hand out text already decoded, as node-fetch set to an encoding does.
const stringFetch: FetchLike = async (url, init) => {
  const response = await fetch(url, init as RequestInit);
  const decoded: FetchResponse = {
    status: response.status,
    ok: response.ok,
    url: response.url,
    redirected: response.redirected,
    headers: response.headers,
    body: response.body === null ? null : strings(response.body),
    text: () => response.text(),
  };
  return decoded;
};

async function* strings(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // Odd sizes, so that pieces end inside characters and pairs.
      const text = decoder.decode(value, { stream: true });
      for (let i = 0; i < text.length; i += 1001) yield text.slice(i, i + 1001);
    }
  } finally {
    reader.releaseLock();
  }
}

const FETCHES: Array<[string, FetchLike | undefined]> = [
  ["rxmcp's own node:http requests", undefined],
  ['the global fetch, whose bodies are web streams of bytes', fetch as unknown as FetchLike],
  ['a fetch whose bodies hand out strings', stringFetch],
];

describe('maxMessageBytes over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
  });
  afterAll(async () => {
    await server.stop();
  });

  describe.each(FETCHES)('with %s', (_name, fetchImpl) => {
    it.each(['wide-text', 'wide-event'])('refuses a %s answer over the limit in bytes though within it in characters, and takes one within it', async (tool) => {
      const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 100_000, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
      try {
        // 40,000 characters in 120,000 bytes.
        await expect(firstValueFrom(mcp.callTool(tool, { chars: 40_000 }))).rejects.toThrow(/sent a message longer than maxMessageBytes \(100000\)/);
        // 30,000 characters in 90,000 bytes, and what wraps them.
        const [wide] = (await firstValueFrom(mcp.callTool(tool, { chars: 30_000 }))).content as Array<{ text: string }>;
        expect(wide?.text).toBe('✓'.repeat(30_000));
      } finally {
        await mcp.close();
      }
    });
  });
});
