import type Anthropic from '@anthropic-ai/sdk';
import type { Part } from '@google/genai';
import { AIMessage, ToolMessage as LangchainToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { firstValueFrom } from 'rxjs';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIChatToolCalls,
  executeOpenAIResponsesToolCalls,
  type LlmToolCall,
  McpClient,
  mediaMessagesForOpenAIChat,
  Policy,
  Registry,
  Toolkit,
} from 'rxmcp';
import { z } from 'zod';
import { aiSdkTools } from 'rxmcp/ai-sdk';
import { langchainTools } from 'rxmcp/langchain';
import { everythingServer, fixture } from '../support/servers.js';

// Images and audio a tool returns, handed to the model in each vendor's own
// shape (media: 'inline'), checked and bounded; the bytes must arrive as
// the server sent them.

const root = join(__dirname, '..', '..');
const bytes = (base64: string): Buffer => Buffer.from(base64, 'base64');
const call = (id: string, name: string, args: object = {}): LlmToolCall => ({ id, type: 'function', function: { name, arguments: args } });

describe('media to the model, from real servers', () => {
  const everything = McpClient.connectStdio(everythingServer);
  const media = McpClient.connectStdio(fixture('media-server.mjs'));
  let tiny: Buffer;
  let beep: Buffer;

  beforeAll(async () => {
    const image = (await firstValueFrom(everything.callTool('get-tiny-image'))).content.find((block) => block.type === 'image');
    tiny = bytes(image?.data ?? '');
    const audio = (await firstValueFrom(media.callTool('beep'))).content.find((block) => block.type === 'audio');
    beep = bytes(audio?.data ?? '');
    expect(tiny.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
  });
  afterAll(() => Promise.all([everything.close(), media.close()]));

  it('stays text in a plain executeToolCalls, as before', async () => {
    const [answer] = await everything.executeToolCalls([call('1', 'get-tiny-image')]);
    expect(answer?.content).toBe(`Here's the image you requested:\n[image: image/png, ${tiny.length} bytes]\nThe image above is the MCP logo.`);
    expect(answer?.media).toBeUndefined();
  });

  it('rides in the answer of a plain executeToolCalls asked for inline, named as attached in its text', async () => {
    const [answer] = await everything.executeToolCalls([call('1', 'get-tiny-image')], { media: 'inline' });
    expect(answer?.content).toBe(`Here's the image you requested:\n[image: image/png, ${tiny.length} bytes; attached]\nThe image above is the MCP logo.`);
    expect(answer?.media).toHaveLength(1);
    expect(answer?.media?.[0]?.mimeType).toBe('image/png');
    expect(bytes(answer?.media?.[0]?.data ?? '')).toEqual(tiny);
  });

  it('reaches Anthropic as an image block of the tool_result', async () => {
    const blocks: Anthropic.ToolResultBlockParam[] = await executeAnthropicToolCalls(everything, [{ type: 'tool_use', id: 'toolu_1', name: 'get-tiny-image', input: {} } as { type: string }]);
    const content = blocks[0]?.content as Anthropic.ToolResultBlockParam['content'] & unknown[];
    expect(content[0]).toEqual({ type: 'text', text: expect.stringContaining('; attached]') });
    const image = content[1] as Anthropic.ImageBlockParam;
    expect(image.type).toBe('image');
    expect(image.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(bytes((image.source as Anthropic.Base64ImageSource).data)).toEqual(tiny);
  });

  it('reaches the Responses API as an input_image part of the function_call_output', async () => {
    const answers: OpenAI.Responses.ResponseInputItem[] = await executeOpenAIResponsesToolCalls(everything, [{ type: 'function_call', call_id: 'c1', name: 'get-tiny-image', arguments: '{}' } as { type: string }]);
    const output = (answers[0] as OpenAI.Responses.ResponseInputItem.FunctionCallOutput).output as OpenAI.Responses.ResponseFunctionCallOutputItem[];
    expect(output[0]).toEqual({ type: 'input_text', text: expect.stringContaining('; attached]') });
    const url = (output[1] as OpenAI.Responses.ResponseInputImageContent).image_url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(bytes(url.slice('data:image/png;base64,'.length))).toEqual(tiny);
  });

  it('reaches Gemini as inline data parts of the function response', async () => {
    const parts: Part[] = await executeGeminiToolCalls(everything, [{ functionCall: { id: 'g1', name: 'get-tiny-image', args: {} } }]);
    const inline = parts[0]?.functionResponse?.parts?.[0]?.inlineData;
    expect(inline?.mimeType).toBe('image/png');
    expect(bytes(inline?.data ?? '')).toEqual(tiny);
    expect(parts[0]?.functionResponse?.response).toEqual({ output: expect.stringContaining('; attached]') });
  });

  it('reaches the chat-completions shape as a follow-up user message of image_url parts', async () => {
    const answers = await executeOpenAIChatToolCalls(everything, [call('call_1', 'get-tiny-image')]);
    const follow: OpenAI.Chat.ChatCompletionUserMessageParam[] = mediaMessagesForOpenAIChat(answers);
    expect(follow).toHaveLength(1);
    const parts = follow[0]?.content as OpenAI.Chat.ChatCompletionContentPart[];
    expect(parts[1]).toEqual({ type: 'text', text: 'call_1, image 1 of 1 (image/png):' });
    const url = (parts[2] as OpenAI.Chat.ChatCompletionContentPartImage).image_url.url;
    expect(bytes(url.slice('data:image/png;base64,'.length))).toEqual(tiny);
    expect(mediaMessagesForOpenAIChat(await executeOpenAIChatToolCalls(everything, [call('call_2', 'echo', { message: 'hi' })]))).toEqual([]);
  });

  it('reaches an AI SDK model as image data in a content output', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
        if (options.prompt.some((message) => message.role === 'tool')) return { content: [{ type: 'text', text: 'a logo' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        return { content: [{ type: 'tool-call', toolCallId: 'a1', toolName: 'get-tiny-image', input: '{}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      },
    });
    await generateText({ model, prompt: 'show me', tools: await aiSdkTools(everything, { tools: ['get-tiny-image'] }), stopWhen: stepCountIs(3) });
    const result = (model.doGenerateCalls[1]?.prompt ?? []).flatMap((message) => (message.role === 'tool' ? message.content : [])).find((part) => part.type === 'tool-result');
    const output = result?.type === 'tool-result' ? result.output : undefined;
    expect(output?.type).toBe('content');
    const value = output?.type === 'content' ? output.value : [];
    expect(value[0]).toEqual({ type: 'text', text: expect.stringContaining('; attached]') });
    const image = value.find((part) => part.type === 'image-data') as { data: string; mediaType: string } | undefined;
    expect(image?.mediaType).toBe('image/png');
    expect(bytes(image?.data ?? '')).toEqual(tiny);
  });

  it('reaches a LangChain ToolNode as a standard image content block', async () => {
    const node = new ToolNode(await langchainTools(everything, { tools: ['get-tiny-image'] }));
    const { messages } = (await node.invoke({ messages: [new AIMessage({ content: '', tool_calls: [{ id: 'l1', name: 'get-tiny-image', args: {} }] })] })) as { messages: LangchainToolMessage[] };
    const content = messages[0]?.content as Array<{ type: string; text?: string; mimeType?: string; data?: string }>;
    expect(content[0]).toEqual({ type: 'text', text: expect.stringContaining('; attached]') });
    expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(bytes(content[1]?.data ?? '')).toEqual(tiny);
  });

  it('crosses a Registry + Policy stack intact, and the budget holds for the whole batch however the Registry splits it', async () => {
    const stack = new Policy({ provider: new Registry().add(everything, { prefix: 'ev' }).add(media, { prefix: 'md' }), rules: [{ tool: '*', decision: 'allow' }] });
    const uses = [
      { type: 'tool_use', id: 't1', name: 'ev_get-tiny-image', input: {} },
      { type: 'tool_use', id: 't2', name: 'md_many-images', input: {} },
    ];
    const blocks = await executeAnthropicToolCalls(stack, uses, { maxResultChars: Infinity });
    const [first, second] = blocks.map((block) => block.content as Array<{ type: string; text?: string; source?: { data: string } }>);
    expect(bytes(first?.[1]?.source?.data ?? '')).toEqual(tiny);
    // Ten images in all: the logo and nine of the thousand.
    expect(second?.filter((part) => part.type === 'image')).toHaveLength(9);
    const lines = (second?.[0]?.text ?? '').split('\n');
    expect(lines.filter((line) => line.endsWith('; attached]'))).toHaveLength(9);
    expect(lines[9]).toBe("[image: image/png, 70 bytes; not attached: the batch's limit of 10 media items is reached]");
    expect(lines).toHaveLength(1000);
  });

  it('gives Gemini the audio clip as inline data, and tells Anthropic, which takes none, in words', async () => {
    const parts = await executeGeminiToolCalls(media, [{ functionCall: { name: 'beep', args: {} } }]);
    const inline = parts[0]?.functionResponse.parts?.[0]?.inlineData;
    expect(inline?.mimeType).toBe('audio/wav');
    expect(bytes(inline?.data ?? '')).toEqual(beep);
    const [block] = await executeAnthropicToolCalls(media, [{ type: 'tool_use', id: 't1', name: 'beep', input: {} } as { type: string }]);
    expect(block?.content).toBe(`a beep\n[audio: audio/wav, ${beep.length} bytes; not attached: this model API does not take audio/wav]`);
  });

  it("hands over server-filesystem's read_media_file of a PNG in a folder", async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-media-')));
    const fs = McpClient.connectStdio({ command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), folder], cwd: folder });
    try {
      writeFileSync(join(folder, 'logo.png'), tiny);
      const answers = await executeOpenAIResponsesToolCalls(fs, [
        { type: 'function_call', call_id: 'r1', name: 'read_media_file', arguments: JSON.stringify({ path: join(folder, 'logo.png') }) } as { type: string },
      ]);
      const output = answers[0]?.output as Array<{ type: string; image_url?: string }>;
      expect(bytes((output[1]?.image_url ?? '').slice('data:image/png;base64,'.length))).toEqual(tiny);
    } finally {
      await fs.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('media a server cannot be trusted about', () => {
  const media = McpClient.connectStdio(fixture('media-server.mjs'));
  afterAll(() => media.close());

  const inline = async (name: string) => (await media.executeToolCalls([call('1', name)], { media: 'inline' }))[0];

  it('cuts an image of 50 MiB by its size alone, and the client goes on answering', async () => {
    const answer = await inline('huge-image');
    expect(answer?.media).toBeUndefined();
    expect(answer?.content).toBe('[image: image/png, 39321600 bytes; not attached: larger than the 15728640 bytes one image may have]');
    expect((await inline('pixel'))?.media).toHaveLength(1);
  });

  it('keeps a PNG that says it is a JPEG out, saying so', async () => {
    const answer = await inline('lying-image');
    expect(answer?.media).toBeUndefined();
    expect(answer?.content).toBe('[image: image/jpeg, 70 bytes; not attached: its bytes are not image/jpeg]');
  });

  it('keeps data that is not base64 out: the client refuses the result, and a Toolkit answer is named, not attached', async () => {
    const refused = await inline('not-base64');
    expect(refused?.is_error).toBe(true);
    expect(refused?.media).toBeUndefined();
    const local = new Toolkit({ name: 'local' }).tool('broken', { description: 'An image that is not base64', input: z.object({}) }, () => ({
      content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo<script>' }],
    }));
    const [answer] = await local.executeToolCalls([call('1', 'broken')], { media: 'inline' });
    expect(answer?.media).toBeUndefined();
    expect(answer?.content).toBe('[image: image/png, 14 bytes; not attached: its data is not valid base64]');
  });

  it('names a type the model API does not take, and one rxmcp cannot check', async () => {
    expect((await inline('svg'))?.content).toMatch(/^\[image: image\/svg\+xml, \d+ bytes; not attached: this model API does not take image\/svg\+xml\]$/);
    const [answer] = await media.executeToolCalls([call('1', 'svg')], { media: 'inline', mediaLimits: { mimeTypes: ['image/svg+xml'] } });
    expect(answer?.content).toMatch(/; not attached: rxmcp cannot check that its bytes are image\/svg\+xml\]$/);
  });

  it('reads a type named after a key of Object.prototype as an unknown type, and a type with parameters as the type', async () => {
    const answer = await inline('odd-types');
    expect(answer?.is_error).toBe(false);
    expect(answer?.content.split('\n')).toEqual([
      'the answer',
      '[image: constructor, 70 bytes; not attached: this model API does not take constructor]',
      '[image: __proto__, 70 bytes; not attached: this model API does not take __proto__]',
      '[image: toString, 70 bytes; not attached: this model API does not take toString]',
      '[image: image/jpg; q=1, 10 bytes; attached]',
      '[image: IMAGE/PNG; charset=binary, 70 bytes; attached]',
    ]);
    expect(answer?.media?.map((item) => item.mimeType)).toEqual(['image/jpeg', 'image/png']);
  });

  it('attaches ten of a thousand images in one result, and says of each of the rest why not', async () => {
    const [answer] = await media.executeToolCalls([call('1', 'many-images')], { media: 'inline', maxResultChars: Infinity });
    expect(answer?.media).toHaveLength(10);
    const lines = answer?.content.split('\n') ?? [];
    expect(lines.filter((line) => line.endsWith("not attached: the batch's limit of 10 media items is reached]"))).toHaveLength(990);
  });

  it('holds a byte budget too, and each answer says what it left out', async () => {
    const answers = await media.executeToolCalls([call('1', 'pixel'), call('2', 'pixel')], { media: 'inline', mediaLimits: { maxBytes: 100 } });
    expect(answers[0]?.media).toHaveLength(1);
    expect(answers[1]?.media).toBeUndefined();
    expect(answers[1]?.content).toBe("[image: image/png, 70 bytes; not attached: the batch's media budget of 100 bytes has 30 left]");
  });

  it('refuses the whole batch for a media option nobody can read', async () => {
    const [answer] = await media.executeToolCalls([call('1', 'pixel')], { media: 'yes' as 'inline' });
    expect(answer).toEqual({ role: 'tool', tool_call_id: '1', is_error: true, content: `option media must be 'inline' or 'text'; got "yes"` });
    const [limited] = await media.executeToolCalls([call('1', 'pixel')], { media: 'inline', mediaLimits: { maxItems: -1 } });
    expect(limited?.content).toBe('option mediaLimits.maxItems must be a whole number, 0 or more; got -1');
    const [block] = await executeAnthropicToolCalls(media, [{ type: 'tool_use', id: 't1', name: 'pixel', input: {} } as { type: string }], { mediaLimits: 'all' as never });
    expect(block).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'option mediaLimits must be an object', is_error: true });
    await expect(aiSdkTools(media, { media: 'yes' as 'inline' })).rejects.toThrow(`option media must be 'inline' or 'text'; got "yes"`);
    await expect(langchainTools(media, { mediaLimits: { maxBytes: 1.5 } })).rejects.toThrow('option mediaLimits.maxBytes must be a whole number, 0 or more; got 1.5');
  });
});
