import type { InputBroker, PendingQuestion } from 'rxmcp';
import type { Answers } from './answers-panel.js';
import { byId, element } from './element.js';
import { formQuestion } from './form-question.js';
import type { QuestionView } from './question-view.js';
import { samplingQuestion } from './sampling-question.js';
import { urlQuestion } from './url-question.js';

/**
 * Shows `broker`'s questions in the `<dialog id="question">`, opened as a
 * modal: in the browser's top layer, above the page and a fullscreen view.
 * One question at a time, the oldest first, with "1 of N" while more wait;
 * which server asks; a form elicitation as a form, a URL elicitation as a
 * consent to open its page, a sampling request with its reply. Enter
 * submits; Escape answers `cancel` (the spec's word for a dismissed
 * question). A question whose call ended leaves the broker's list, and the
 * dialog: the next one shows, or it closes.
 *
 * @returns a function that stops showing the broker's questions
 */
export function showQuestions(broker: InputBroker, answers?: Pick<Answers, 'model'>): () => void {
  const panel = byId('question') as HTMLDialogElement;
  let shown: { question: PendingQuestion; view: QuestionView; stop: AbortController } | undefined;
  const count = element('p');
  count.id = 'question-count';

  const render = (question: PendingQuestion): void => {
    const stop = new AbortController();
    const view =
      question.kind === 'url'
        ? urlQuestion(question)
        : question.kind === 'sampling'
          ? samplingQuestion(question, answers?.model ?? (() => undefined), stop.signal)
          : formQuestion(question);
    shown = { question, view, stop };
    const form = element('form');
    form.noValidate = true;
    form.onsubmit = (event) => {
      event.preventDefault();
      view.submit();
    };
    const actions = element('div');
    actions.className = 'actions';
    actions.append(...view.actions);
    const asker = element('p', `Asked by ${askerOf(question)}`);
    asker.className = 'asked-by';
    form.append(element('h2', view.title), asker, count, ...view.body, actions);
    panel.replaceChildren(form);
    panel.dataset.kind = question.kind;
  };

  const subscription = broker.pending$.subscribe((pending) => {
    const first = pending[0];
    if (shown && shown.question !== first) {
      shown.stop.abort();
      shown = undefined;
    }
    if (!first) {
      panel.replaceChildren();
      if (panel.open) panel.close();
      return;
    }
    if (!shown) render(first);
    count.textContent = pending.length > 1 ? `1 of ${pending.length}` : '';
    count.hidden = pending.length < 2;
    if (!panel.open) panel.showModal();
  });
  // Escape: the question is dismissed, not the dialog (the next question, if any, shows in it).
  panel.oncancel = (event) => {
    event.preventDefault();
    shown?.question.cancel();
  };
  // A browser may close the dialog anyway (a second Escape): while a question waits, it opens again.
  panel.onclose = () => {
    if (shown) panel.showModal();
  };
  return () => {
    subscription.unsubscribe();
    shown?.stop.abort();
    shown = undefined;
    panel.oncancel = null;
    panel.onclose = null;
    if (panel.open) panel.close();
  };
}

/** Which server asks, as the client learned it (cleaned and cut short there), or "the server". */
function askerOf(question: PendingQuestion): string {
  const server = question.server;
  const name = server?.title ?? server?.name;
  if (name === undefined) return 'the server';
  return `${JSON.stringify(name)}${server?.version === undefined ? '' : ` ${server.version}`}${server?.prefix === undefined ? '' : ` (as ${server.prefix})`}`;
}
