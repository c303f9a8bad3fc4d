import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat completions message as the fake reads it. */
export interface ChatMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
}

/** One request the fake answered. */
export interface RecordedRequest {
  headers: IncomingHttpHeaders;
  body: { model: string; messages: ChatMessage[]; tools?: Array<{ type: string; function: { name: string } }> };
}

/** The keys the chat completions API takes on each kind of message; anything else is refused, as the API refuses it. */
const ALLOWED_KEYS: Record<string, string[]> = {
  system: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'refusal', 'audio'],
  tool: ['role', 'content', 'tool_call_id'],
};

/**
 * A fake OpenAI-compatible endpoint on 127.0.0.1: `POST {url}/chat/completions`
 * answers with the assistant message `reply` makes of the conversation, after
 * checking the bearer key and the shape of every message. With `cors`, it
 * lets web pages of any origin call it, as a browser needs.
 */
export async function startFakeOpenAI(options: { apiKey: string; reply: (messages: ChatMessage[]) => ChatMessage; cors?: boolean }) {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    if (options.cors) {
      response.setHeader('access-control-allow-origin', '*');
      response.setHeader('access-control-allow-headers', 'authorization, content-type');
      if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const refuse = (status: number, message: string): void => {
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
      };
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return refuse(404, `no route ${request.method} ${request.url}`);
      if (request.headers.authorization !== `Bearer ${options.apiKey}`) return refuse(401, 'Incorrect API key provided');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
      requests.push({ headers: request.headers, body });
      for (const [index, message] of body.messages.entries()) {
        const extra = Object.keys(message).filter((key) => !(ALLOWED_KEYS[message.role] ?? []).includes(key));
        if (extra.length > 0) return refuse(400, `Additional properties are not allowed (${extra.map((key) => `'${key}'`).join(', ')} was unexpected) - 'messages.${index}'`);
      }
      const message = options.reply(body.messages);
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1745000000,
          model: body.model,
          choices: [{ index: 0, message: { refusal: null, ...message }, logprobs: null, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
