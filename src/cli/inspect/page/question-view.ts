import type { PendingQuestion } from 'rxmcp';
import { element } from './element.js';

/** One question as the dialog shows it: what it says, its buttons, and what Enter does. */
export interface QuestionView {
  title: string;
  body: HTMLElement[];
  actions: HTMLElement[];
  /** The form's submit (Enter, or a submit button): answers, or shows why it cannot yet. */
  submit(): void;
}

/** The dialog's Send: its form's submit button (Enter does the same). */
export function sendButton(): HTMLButtonElement {
  const send = element('button', 'Send');
  send.type = 'submit';
  send.id = 'answer';
  return send;
}

/** The dialog's Decline, answering `decline` to `question`. */
export function declineButton(question: PendingQuestion): HTMLButtonElement {
  const decline = element('button', 'Decline');
  decline.type = 'button';
  decline.id = 'decline';
  decline.onclick = () => question.decline();
  return decline;
}
