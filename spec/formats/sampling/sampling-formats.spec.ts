import {
  anthropicToSamplingResult,
  type CreateMessageParams,
  geminiToSamplingResult,
  openAIChatToSamplingResult,
  openAIResponsesToSamplingResult,
  samplingToAnthropic,
  samplingToGemini,
  samplingToOpenAIChat,
  samplingToOpenAIResponses,
} from 'rxmcp/sampling';
import { McpClientError } from 'rxmcp';
import { checkSamplingResult } from '../../../src/protocol/sampling-checks';

// The request of the spec's "Multi-turn Tool Loop" (2025-11-25 client/sampling):
// the model asked for the weather, the server ran the tool and asks again.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const weather = {
  name: 'get_weather',
  description: 'Get current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
};
const followUp: CreateMessageParams = {
  systemPrompt: 'You are a helpful travel assistant.',
  maxTokens: 1000,
  temperature: 0.2,
  stopSequences: ['END'],
  tools: [weather],
  toolChoice: { mode: 'auto' },
  messages: [
    { role: 'user', content: [{ type: 'text', text: "What's the weather like in Paris? Here is the view." }, { type: 'image', data: PNG, mimeType: 'image/png' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'call_abc123', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_abc123', content: [{ type: 'text', text: 'Weather in Paris: 18°C, partly cloudy' }] }] },
  ],
};
const plain: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 50 };

describe('rxmcp/sampling: OpenAI Chat Completions', () => {
  it('writes the system prompt, images, tool calls, tool messages, tools and tool_choice', () => {
    expect(samplingToOpenAIChat(followUp, { model: 'gpt-4o' })).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a helpful travel assistant.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: "What's the weather like in Paris? Here is the view." },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_abc123', content: 'Weather in Paris: 18°C, partly cloudy' },
      ],
      max_completion_tokens: 1000,
      temperature: 0.2,
      stop: ['END'],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Get current weather for a city', parameters: weather.inputSchema } }],
      tool_choice: 'auto',
    });
  });

  it('writes a plain request with a string message and no tools', () => {
    expect(samplingToOpenAIChat(plain)).toEqual({ messages: [{ role: 'user', content: 'Write a haiku' }], max_completion_tokens: 50 });
  });

  it('reads tool_calls back as tool_use content with stopReason toolUse', () => {
    // As the API reference shows a completion that calls a function.
    const completion = {
      id: 'chatcmpl-abc123',
      object: 'chat.completion',
      created: 1699896916,
      model: 'gpt-4o-2024-08-06',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_xyz', type: 'function', function: { name: 'get_weather', arguments: '{\n"city": "Lyon"\n}' } }],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    };
    const result = openAIChatToSamplingResult(completion);
    expect(result).toEqual({
      role: 'assistant',
      content: { type: 'tool_use', id: 'call_xyz', name: 'get_weather', input: { city: 'Lyon' } },
      model: 'gpt-4o-2024-08-06',
      stopReason: 'toolUse',
    });
    expect(checkSamplingResult(result as never, followUp as never)).toBeUndefined();
  });

  it('reads text with finish_reason length as maxTokens, and refuses arguments that are not a JSON object', () => {
    const text = { model: 'gpt-4o', choices: [{ message: { role: 'assistant', content: 'Cherry blossoms fall' }, finish_reason: 'length' }] };
    expect(openAIChatToSamplingResult(text)).toEqual({ role: 'assistant', content: { type: 'text', text: 'Cherry blossoms fall' }, model: 'gpt-4o', stopReason: 'maxTokens' });
    const broken = { choices: [{ message: { tool_calls: [{ id: 'c', function: { name: 'get_weather', arguments: '[1,' } }] }, finish_reason: 'tool_calls' }] };
    expect(() => openAIChatToSamplingResult(broken)).toThrow(McpClientError);
    expect(() => openAIChatToSamplingResult({ choices: [] })).toThrow(McpClientError);
  });
});

describe('rxmcp/sampling: OpenAI Responses', () => {
  it('writes instructions, input items, function_call and function_call_output items, and function tools', () => {
    expect(samplingToOpenAIResponses(followUp, { model: 'gpt-5' })).toEqual({
      model: 'gpt-5',
      instructions: 'You are a helpful travel assistant.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: "What's the weather like in Paris? Here is the view." },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
          ],
        },
        { role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.' }] },
        { type: 'function_call', call_id: 'call_abc123', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_abc123', output: 'Weather in Paris: 18°C, partly cloudy' },
      ],
      max_output_tokens: 1000,
      temperature: 0.2,
      tools: [{ type: 'function', name: 'get_weather', description: 'Get current weather for a city', parameters: weather.inputSchema, strict: false }],
      tool_choice: 'auto',
      store: false,
    });
  });

  it('reads function_call items back as tool_use content, reasoning left out', () => {
    const response = {
      id: 'resp_67ccd2bed1ec8190b14f964abc054267',
      object: 'response',
      status: 'completed',
      model: 'gpt-5-2025-08-07',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [] },
        { type: 'function_call', id: 'fc_12345xyz', call_id: 'call_12345xyz', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
      ],
    };
    expect(openAIResponsesToSamplingResult(response)).toEqual({
      role: 'assistant',
      content: { type: 'tool_use', id: 'call_12345xyz', name: 'get_weather', input: { city: 'Paris' } },
      model: 'gpt-5-2025-08-07',
      stopReason: 'toolUse',
    });
  });

  it('reads output_text as text, and an incomplete answer as maxTokens', () => {
    const message = (text: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
    expect(openAIResponsesToSamplingResult({ status: 'completed', model: 'gpt-5', output: [message('In Paris it is 18°C.')] })).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'In Paris it is 18°C.' },
      model: 'gpt-5',
      stopReason: 'endTurn',
    });
    const cut = { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, model: 'gpt-5', output: [message('In Par')] };
    expect(openAIResponsesToSamplingResult(cut).stopReason).toBe('maxTokens');
  });
});

describe('rxmcp/sampling: Anthropic Messages', () => {
  it('writes system, image sources, tool_use and tool_result blocks, tools and tool_choice any for required', () => {
    expect(samplingToAnthropic({ ...followUp, toolChoice: { mode: 'required' } }, { model: 'claude-sonnet-4-5' })).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'You are a helpful travel assistant.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: "What's the weather like in Paris? Here is the view." },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'call_abc123', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_abc123', content: [{ type: 'text', text: 'Weather in Paris: 18°C, partly cloudy' }] }] },
      ],
      max_tokens: 1000,
      temperature: 0.2,
      stop_sequences: ['END'],
      tools: [{ name: 'get_weather', description: 'Get current weather for a city', input_schema: weather.inputSchema }],
      tool_choice: { type: 'any' },
    });
  });

  it('reads a tool_use answer back, and end_turn text as endTurn', () => {
    // As the Messages API documents a response that uses a tool.
    const response = {
      id: 'msg_01Aq9w938a90dw8q',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        { type: 'text', text: "I'll check the current weather in Paris for you." },
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 494, output_tokens: 74 },
    };
    expect(anthropicToSamplingResult(response)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: "I'll check the current weather in Paris for you." },
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
      ],
      model: 'claude-sonnet-4-5-20250929',
      stopReason: 'toolUse',
    });
    const done = { model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn' };
    expect(anthropicToSamplingResult(done)).toEqual({ role: 'assistant', content: { type: 'text', text: 'Sunny.' }, model: 'claude-haiku-4-5', stopReason: 'endTurn' });
    expect(anthropicToSamplingResult({ content: [], stop_reason: '__proto__' }, 'm').stopReason).toBe('__proto__');
  });
});

describe('rxmcp/sampling: Gemini generateContent', () => {
  it('writes systemInstruction, model turns, inlineData, functionCall and functionResponse parts, and functionCallingConfig', () => {
    expect(samplingToGemini({ ...followUp, toolChoice: { mode: 'none' } })).toEqual({
      systemInstruction: { parts: [{ text: 'You are a helpful travel assistant.' }] },
      contents: [
        { role: 'user', parts: [{ text: "What's the weather like in Paris? Here is the view." }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
        { role: 'model', parts: [{ text: 'Let me check.' }, { functionCall: { id: 'call_abc123', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_abc123', name: 'get_weather', response: { output: 'Weather in Paris: 18°C, partly cloudy' } } }] },
      ],
      generationConfig: { maxOutputTokens: 1000, temperature: 0.2, stopSequences: ['END'] },
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Get current weather for a city', parametersJsonSchema: weather.inputSchema }] }],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
    });
  });

  it('reads functionCall parts back as tool_use content, with an id made up when Gemini gives none', () => {
    // As the Gemini API documents a function calling response.
    const response = {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 5, totalTokenCount: 65 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'Mzq9aK2oFZ2',
    };
    expect(geminiToSamplingResult(response)).toEqual({
      role: 'assistant',
      content: { type: 'tool_use', id: 'Mzq9aK2oFZ2-0', name: 'get_weather', input: { city: 'Paris' } },
      model: 'gemini-2.5-flash',
      stopReason: 'toolUse',
    });
    const text = { candidates: [{ content: { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'Sunny.' }] }, finishReason: 'MAX_TOKENS' }] };
    expect(geminiToSamplingResult(text, 'gemini-2.5-pro')).toEqual({ role: 'assistant', content: { type: 'text', text: 'Sunny.' }, model: 'gemini-2.5-pro', stopReason: 'maxTokens' });
    expect(() => geminiToSamplingResult({ candidates: [] })).toThrow(McpClientError);
  });
});
