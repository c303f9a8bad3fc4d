import type Anthropic from '@anthropic-ai/sdk';
import type { Content, GenerateContentResponse, Part, Tool as GeminiTool } from '@google/genai';
import type OpenAI from 'openai';
import {
  executeAnthropicToolCalls,
  executeGeminiToolCalls,
  executeOpenAIResponsesToolCalls,
  toolsForAnthropic,
  toolsForGemini,
  toolsForOpenAIResponses,
} from '../../src/index.js';
import anthropicRecording from '../fixtures/formats/anthropic-messages.json';
import geminiRecording from '../fixtures/formats/gemini.json';
import chatRecording from '../fixtures/formats/openai-chat.json';
import responsesRecording from '../fixtures/formats/openai-responses.json';
import { BatchRecorder } from '../support/batch-recorder.js';
import { officeTools } from '../support/office-tools.js';

// Each recording is one exchange with a vendor's API, written by hand from
// its documented shapes: the first request (the tools rxmcp declares), the
// model's reply (two calls: a weather lookup the policy lets through, and
// an email the human refuses), and the follow-up request carrying the
// answers. The follow-ups are built below with the vendor SDK's own types,
// so `npm run typecheck` proves that the formats fit those types, and the
// tests prove that the bytes are the documented ones.

interface Recording<Request, Response> {
  request: Request;
  response: Response;
  followUp: Request;
}

describe('the OpenAI chat shape (toolsForLlm, executeToolCalls)', () => {
  const recorded = chatRecording as unknown as Recording<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, OpenAI.Chat.ChatCompletion>;

  it('declares the tools of the recorded request and answers its calls with the recorded tool messages', async () => {
    const { policy } = officeTools();
    const tools: OpenAI.Chat.ChatCompletionTool[] = await policy.toolsForLlm();
    expect(tools).toEqual(recorded.request.tools);

    const message = recorded.response.choices[0]!.message;
    // Custom (free-text) tool calls are not function calls, and not rxmcp's to run.
    const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
    const answers = await policy.executeToolCalls(calls);
    // The API takes role, tool_call_id and content; is_error and structured_content are rxmcp's own.
    const toolMessages: OpenAI.Chat.ChatCompletionToolMessageParam[] = answers.map(({ role, tool_call_id, content }) => ({ role, tool_call_id, content }));
    const followUp: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: recorded.request.model,
      messages: [...recorded.request.messages, message, ...toolMessages],
      tools,
    };
    expect(followUp).toEqual(recorded.followUp);
  });
});

describe('the OpenAI Responses format', () => {
  const recorded = responsesRecording as unknown as Recording<OpenAI.Responses.ResponseCreateParamsNonStreaming, OpenAI.Responses.Response>;

  it('declares function tools as the recorded request does', async () => {
    const tools: OpenAI.Responses.Tool[] = await toolsForOpenAIResponses(officeTools().policy);
    expect(tools).toEqual(recorded.request.tools);
  });

  it('answers the function_call items of the recorded output with the recorded function_call_output items', async () => {
    const { policy } = officeTools();
    const tools = await toolsForOpenAIResponses(policy);
    const answers: OpenAI.Responses.ResponseInputItem[] = await executeOpenAIResponsesToolCalls(policy, recorded.response.output);
    const followUp: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: recorded.request.model,
      // The SDK types some output items (a computer call's 'failed' status) wider than it takes them back as input.
      input: [...(recorded.request.input as OpenAI.Responses.ResponseInputItem[]), ...(recorded.response.output as OpenAI.Responses.ResponseInputItem[]), ...answers],
      tools,
    };
    expect(followUp).toEqual(recorded.followUp);
  });

  it('hands the whole turn to the provider as one batch, skipping the reasoning item', async () => {
    const recorder = new BatchRecorder(officeTools().policy);
    await executeOpenAIResponsesToolCalls(recorder, recorded.response.output);
    expect(recorder.batches).toEqual([['call_Wq8bJ1', 'call_Ka3xP7']]);
  });

  it('answers arguments that are not JSON with the reason, and a turn without calls with nothing', async () => {
    const recorder = new BatchRecorder(officeTools().policy);
    const broken = [{ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":' }];
    expect(await executeOpenAIResponsesToolCalls(recorder, broken)).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: 'Invalid arguments for get_weather: not valid JSON' },
    ]);
    expect(await executeOpenAIResponsesToolCalls(recorder, [{ type: 'message' }, { type: 'reasoning' }])).toEqual([]);
    expect(recorder.batches).toHaveLength(1);
  });
});

describe('the Anthropic Messages format', () => {
  const recorded = anthropicRecording as unknown as Recording<Anthropic.MessageCreateParamsNonStreaming, Anthropic.Message>;

  it('declares input_schema tools as the recorded request does', async () => {
    const tools: Anthropic.Tool[] = await toolsForAnthropic(officeTools().policy);
    expect(tools).toEqual(recorded.request.tools);
  });

  it('answers the tool_use blocks of the recorded message with the recorded tool_result blocks, the refusal flagged is_error', async () => {
    const { policy } = officeTools();
    const results: Anthropic.ToolResultBlockParam[] = await executeAnthropicToolCalls(policy, recorded.response.content);
    const followUp: Anthropic.MessageCreateParamsNonStreaming = {
      model: recorded.request.model,
      max_tokens: recorded.request.max_tokens,
      tools: await toolsForAnthropic(policy),
      messages: [...recorded.request.messages, { role: 'assistant', content: recorded.response.content }, { role: 'user', content: results }],
    };
    expect(followUp).toEqual(recorded.followUp);
  });

  it('hands the whole turn to the provider as one batch, passing over the text block', async () => {
    const recorder = new BatchRecorder(officeTools().policy);
    await executeAnthropicToolCalls(recorder, recorded.response.content);
    expect(recorder.batches).toEqual([['toolu_01A09q90qw90lq917835lq9', 'toolu_01BdF3xY8pQ2mN6vR4sT7uW']]);
  });

  it('refuses an input that is not an object, in the bridge\'s words', async () => {
    const [result] = await executeAnthropicToolCalls(officeTools().policy, [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: ['Paris'] } as { type: string }]);
    expect(result).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Invalid arguments for get_weather: expected a JSON object', is_error: true });
  });
});

describe('the Google Gemini format', () => {
  const recorded = geminiRecording as unknown as Recording<{ contents: Content[]; tools: GeminiTool[] }, GenerateContentResponse>;

  it('declares one Tool of functionDeclarations with JSON schemas, as the recorded request does', async () => {
    const tool: GeminiTool = await toolsForGemini(officeTools().policy);
    expect([tool]).toEqual(recorded.request.tools);
  });

  it('answers the functionCall parts of the recorded candidate with the recorded functionResponse parts, by name when there is no id', async () => {
    const { policy } = officeTools();
    const modelTurn = recorded.response.candidates![0]!.content!;
    const parts: Part[] = await executeGeminiToolCalls(policy, modelTurn.parts ?? []);
    const followUp = { contents: [...recorded.request.contents, modelTurn, { role: 'user', parts }], tools: [await toolsForGemini(policy)] };
    expect(followUp).toEqual(recorded.followUp);
  });

  it('echoes the id of a call that has one, and hands the turn over as one batch', async () => {
    const recorder = new BatchRecorder(officeTools().policy);
    const parts = [{ text: 'Looking it up.' }, { functionCall: { id: 'fc-7', name: 'get_weather', args: { location: 'Oslo' } } }, { functionCall: { name: 'get_weather', args: { location: 'Rome' } } }];
    expect(await executeGeminiToolCalls(recorder, parts)).toEqual([
      { functionResponse: { id: 'fc-7', name: 'get_weather', response: { output: 'Sunny, 21 °C in Oslo' } } },
      { functionResponse: { name: 'get_weather', response: { output: 'Sunny, 21 °C in Rome' } } },
    ]);
    expect(recorder.batches).toEqual([['fc-7', 'gemini-call-1']]);
  });
});
