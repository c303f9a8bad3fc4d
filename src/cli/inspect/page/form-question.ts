import type { PendingQuestion } from 'rxmcp';
import { checkAnswer } from '../../../client/questions/answer-check.js';
import { element } from './element.js';
import { declineButton, type QuestionView, sendButton } from './question-view.js';
import { schemaForm } from './schema-form.js';

/**
 * A form elicitation: the server's message and a form built from its
 * `requestedSchema`. Send checks the answer first, as the client will
 * (`checkAnswer`: required fields, lengths, formats, ranges, choices), and
 * shows the first field that breaks it instead of sending.
 */
export function formQuestion(question: PendingQuestion): QuestionView {
  const schema = question.params.requestedSchema;
  const [form, read, validate] = schemaForm(schema);
  const send = sendButton();
  const decline = declineButton(question);
  return {
    title: 'The server asks',
    body: [element('p', messageOf(question)), form],
    actions: [send, decline],
    submit: () => {
      if (validate((content) => checkAnswer(content, schema)) === undefined) question.respond({ action: 'accept', content: read() });
    },
  };
}

/** The longest message shown: a question, not a document. */
const MAX_MESSAGE_CHARS = 10_000;

/** The question's message as text, cut short. */
export function messageOf(question: PendingQuestion): string {
  const message = typeof question.params.message === 'string' ? question.params.message : '';
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
}
