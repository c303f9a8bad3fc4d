import type { PendingQuestion } from 'rxmcp';
import type { CreateMessageResult } from 'rxmcp/sampling';
import type { ModelSettings } from './answers-panel.js';
import { contentBlocksView } from './content-view.js';
import { element } from './element.js';
import { askModel } from './model-answer.js';
import { declineButton, type QuestionView, sendButton } from './question-view.js';

/** The most messages, and tools, shown of one request: the rest are counted. */
const MAX_SHOWN = 100;
/** The longest system prompt, tool description or other text shown. */
const MAX_TEXT = 20_000;

/**
 * A sampling request: its system prompt, messages (through the content
 * view), token limit, temperature, stop sequences, tools and model hints,
 * and a reply to write by hand (text, model name, stop reason). "Ask the
 * model" (when one is set up in Answers) drafts the reply with it; the
 * person still sends it. A reply with tool uses is shown as it is and sent
 * as it is; a text reply fills the fields, to be edited before sending.
 */
export function samplingQuestion(question: PendingQuestion, model: () => ModelSettings | undefined, signal: AbortSignal): QuestionView {
  const params = question.params;
  const body: HTMLElement[] = [];
  if (typeof params.systemPrompt === 'string' && params.systemPrompt !== '') body.push(labelled('System prompt', element('pre', cut(params.systemPrompt))));
  const messages = Array.isArray(params.messages) ? params.messages : [];
  const conversation = element('div');
  conversation.className = 'sampling-messages';
  for (const message of messages.slice(0, MAX_SHOWN)) {
    const record = isRecord(message) ? message : {};
    const content = record.content;
    const turn = element('div');
    turn.className = 'sampling-message';
    turn.append(element('strong', String(record.role ?? '?').slice(0, 40)), contentBlocksView(Array.isArray(content) ? content.slice(0, MAX_SHOWN) : [content]));
    conversation.append(turn);
  }
  if (messages.length > MAX_SHOWN) conversation.append(element('p', `and ${messages.length - MAX_SHOWN} more messages`));
  body.push(labelled('Messages', conversation));
  const facts = [
    `maxTokens: ${String(params.maxTokens)}`,
    ...(params.temperature === undefined ? [] : [`temperature: ${String(params.temperature)}`]),
    ...(Array.isArray(params.stopSequences) ? [`stopSequences: ${cut(JSON.stringify(params.stopSequences.slice(0, MAX_SHOWN)))}`] : []),
    ...(typeof params.includeContext === 'string' ? [`includeContext: ${params.includeContext.slice(0, 40)}`] : []),
    ...hintsOf(params.modelPreferences),
  ];
  const details = element('p', facts.join(' · '));
  details.className = 'sampling-facts';
  body.push(details);
  const tools = Array.isArray(params.tools) ? params.tools : [];
  if (tools.length > 0) {
    const list = element('ul');
    for (const tool of tools.slice(0, MAX_SHOWN)) {
      const record = isRecord(tool) ? tool : {};
      const item = element('li');
      item.append(element('code', String(record.name ?? '?').slice(0, 200)));
      if (typeof record.description === 'string') item.append(element('span', ` ${cut(record.description)}`));
      list.append(item);
    }
    const choice = isRecord(params.toolChoice) && typeof params.toolChoice.mode === 'string' ? ` (toolChoice ${params.toolChoice.mode.slice(0, 20)})` : '';
    body.push(labelled(`Tools offered${choice}`, list));
  }

  const text = element('textarea');
  text.id = 'sampling-text';
  text.name = 'text';
  text.rows = 4;
  text.setAttribute('aria-label', 'reply text');
  const modelName = element('input');
  modelName.type = 'text';
  modelName.id = 'sampling-model';
  modelName.name = 'model';
  modelName.value = 'by-hand';
  modelName.setAttribute('aria-label', 'model name');
  const stopReason = element('select');
  stopReason.id = 'sampling-stop';
  stopReason.setAttribute('aria-label', 'stop reason');
  stopReason.append(...['endTurn', 'stopSequence', 'maxTokens'].map((reason) => new Option(reason, reason)));
  const reply = element('div');
  reply.className = 'sampling-reply';
  const status = element('p');
  status.id = 'model-status';
  const drafted = element('div');
  drafted.id = 'model-reply';
  reply.append(element('label', 'Reply'), text, labelled('Model', modelName), labelled('Stop reason', stopReason), status, drafted);
  body.push(reply);

  // A model's reply that is more than text (tool uses, images): sent as it came, once the person approves it.
  let whole: CreateMessageResult | undefined;
  const ask = element('button', 'Ask the model');
  ask.type = 'button';
  ask.id = 'ask-model';
  ask.onclick = async () => {
    const settings = model();
    if (!settings) {
      status.textContent = 'Set up a model under Answers first.';
      return;
    }
    ask.disabled = true;
    status.textContent = 'asking the model…';
    try {
      const result = await askModel(settings, params, signal);
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      modelName.value = result.model;
      if (result.stopReason !== undefined && ['endTurn', 'stopSequence', 'maxTokens'].includes(result.stopReason)) stopReason.value = result.stopReason;
      const [only] = blocks;
      if (blocks.length === 1 && only?.type === 'text') {
        whole = undefined;
        text.value = only.text;
        drafted.replaceChildren();
        status.textContent = 'The model drafted this reply: edit it if you like, then Send.';
      } else {
        whole = result;
        drafted.replaceChildren(contentBlocksView(blocks));
        status.textContent = `The model answered with ${blocks.map((block) => block.type).join(', ')} (stop reason ${String(result.stopReason)}): Send sends it as shown.`;
      }
    } catch (error) {
      if (!signal.aborted) status.textContent = `The model could not answer: ${(error as Error).message}`;
    } finally {
      ask.disabled = false;
    }
  };
  const send = sendButton();
  const decline = declineButton(question);
  return {
    title: 'The server asks for a model\u2019s reply',
    body,
    actions: [send, ask, decline],
    submit: () => {
      if (whole) return question.respond({ ...whole });
      if (modelName.value.trim() === '') {
        status.textContent = 'A reply names its model.';
        return;
      }
      question.respond({ role: 'assistant', content: { type: 'text', text: text.value }, model: modelName.value.trim(), stopReason: stopReason.value });
    },
  };
}

function hintsOf(preferences: unknown): string[] {
  const hints = isRecord(preferences) && Array.isArray(preferences.hints) ? preferences.hints : [];
  const names = hints.slice(0, 10).flatMap((hint) => (isRecord(hint) && typeof hint.name === 'string' ? [hint.name.slice(0, 100)] : []));
  return names.length === 0 ? [] : [`model hints: ${names.join(', ')}`];
}

function labelled(title: string, content: HTMLElement): HTMLElement {
  const box = element('div');
  box.append(element('label', title), content);
  return box;
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
