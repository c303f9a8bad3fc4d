import type { InputBroker, PendingQuestion } from 'rxmcp';
import { byId, element } from './element.js';
import { schemaForm } from './schema-form.js';

/**
 * Shows the first of `broker`'s pending questions (a server's form
 * elicitation) as a form with Send and Decline; the panel hides when none
 * waits. Its message and field names are shown as text.
 *
 * @returns a function that stops showing the broker's questions
 */
export function showQuestions(broker: InputBroker): () => void {
  // A modal dialog sits in the browser's top layer: above the page and above a fullscreen view.
  const panel = byId('question') as HTMLDialogElement;
  const subscription = broker.pending$.subscribe((pending: readonly PendingQuestion[]) => {
    const question = pending[0];
    if (!question) {
      if (panel.open) panel.close();
      return;
    }
    const [form, read] = schemaForm(question.params.requestedSchema);
    const send = element('button', 'Send');
    send.id = 'answer';
    send.onclick = () => question.respond({ action: 'accept', content: read() });
    const decline = element('button', 'Decline');
    decline.onclick = () => question.decline();
    const actions = element('div');
    actions.className = 'actions';
    actions.append(send, decline);
    panel.replaceChildren(element('h2', 'The server asks'), element('p', String(question.params.message ?? '')), form, actions);
    if (!panel.open) panel.showModal();
  });
  return () => {
    subscription.unsubscribe();
    if (panel.open) panel.close();
  };
}
