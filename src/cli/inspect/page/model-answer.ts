import { type CreateMessageParams, type CreateMessageResult, openAIChatToSamplingResult, samplingToOpenAIChat } from 'rxmcp/sampling';
import type { ModelSettings } from './answers-panel.js';

/** The most of a model's answer read: a reply, not a download. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Asks the configured model (an OpenAI-compatible `POST {url}/chat/completions`)
 * for its reply to a sampling request, converted both ways by `rxmcp/sampling`.
 * The reply is a draft: the caller shows it, and the person decides whether
 * it is sent.
 *
 * @throws Error naming the status (and the API's own message, cut short) when the API refuses, or its answer is too large or not a completion
 */
export async function askModel(settings: ModelSettings, params: Record<string, unknown>, signal: AbortSignal): Promise<CreateMessageResult> {
  const endpoint = `${settings.url.replace(/\/+$/, '')}/chat/completions`;
  const body = samplingToOpenAIChat(params as unknown as CreateMessageParams, settings.model === '' ? {} : { model: settings.model });
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(settings.apiKey === '' ? {} : { Authorization: `Bearer ${settings.apiKey}` }) },
    body: JSON.stringify(body),
    signal,
    // The key goes to the endpoint the person named, and nowhere it redirects to.
    redirect: 'error',
  });
  const text = await boundedText(response);
  if (!response.ok) {
    let said = '';
    try {
      const error = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
      if (typeof error === 'string') said = `: ${error.slice(0, 300)}`;
    } catch {
      // Not JSON: the status alone says it.
    }
    throw new Error(`the model's API answered ${response.status}${said}`);
  }
  return openAIChatToSamplingResult(JSON.parse(text), settings.model === '' ? undefined : settings.model);
}

async function boundedText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`the model's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}
