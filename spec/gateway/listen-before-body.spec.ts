import { connect } from 'node:net';
import { Gateway } from '../../src/gateway/index.js';
import { Toolkit } from '../../src/index.js';

// A listener with a bearer token must refuse a caller without it before it
// reads the body: otherwise anyone who can reach the port makes the gateway
// buffer up to 4 MiB per connection, and hold the connection open, unasked.

const TOKEN = 'a-long-enough-test-token-0123456789';
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };

beforeAll(async () => {
  gateway = new Gateway({ provider: new Toolkit({ name: 'none' }) });
  served = await gateway.listen({ port: 0, bearerToken: TOKEN });
});

afterAll(async () => {
  await served?.close();
  await gateway?.close();
});

// Sends the head of a request announcing a 4 MB body, and a few bytes of it; the status line the server answers with, or 'none' after `ms`.
function statusBeforeBody(headers: Record<string, string>, ms = 3_000): Promise<string> {
  const url = new URL(served.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('none');
    }, ms);
    let heard = '';
    socket.on('data', (chunk) => {
      heard += chunk.toString('latin1');
      if (heard.includes('\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(heard.slice(0, heard.indexOf('\r\n')));
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const head = Object.entries({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': '4000000', ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n{"jsonrpc":"2.0",`);
  });
}

it('answers 401 to a request without the token before its body has come', async () => {
  const url = new URL(served.url);
  expect(await statusBeforeBody({ host: url.host })).toBe('HTTP/1.1 401 Unauthorized');
});

it('answers 403 to a foreign Host before its body has come', async () => {
  expect(await statusBeforeBody({ host: 'attacker.example', authorization: `Bearer ${TOKEN}` })).toBe('HTTP/1.1 403 Forbidden');
});
