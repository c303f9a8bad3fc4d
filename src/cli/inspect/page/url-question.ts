import type { PendingQuestion } from 'rxmcp';
import { checkElicitationUrl } from '../../../client/questions/elicitation-url.js';
import { element } from './element.js';
import { messageOf } from './form-question.js';
import { declineButton, type QuestionView } from './question-view.js';

/**
 * A URL elicitation: the server's message as text, then the host the page
 * is on, set apart, and the whole URL. Open opens it in a new tab (no
 * opener, no referrer) only when clicked, then answers `accept`; Decline
 * answers `decline`. The client checked the URL already; the page checks it
 * again (`checkElicitationUrl`), since the page is what the person trusts,
 * and one that fails is shown as refused, with Decline alone.
 */
export function urlQuestion(question: PendingQuestion): QuestionView {
  const checked = checkElicitationUrl(question.params.url);
  const decline = declineButton(question);
  // Enter must not open a page: the first focus is on Decline, and Open is no submit button.
  decline.autofocus = true;
  const body: HTMLElement[] = [element('p', messageOf(question))];
  const actions: HTMLElement[] = [];
  if (checked.ok) {
    const where = element('p', 'Opens a page on ');
    where.className = 'url-where';
    const host = element('strong', checked.host);
    host.className = 'url-host';
    where.append(host);
    const full = element('code', checked.url);
    full.className = 'url-full';
    const open = element('button', `Open ${checked.host}`);
    open.type = 'button';
    open.id = 'open-url';
    open.onclick = () => {
      window.open(checked.url, '_blank', 'noopener,noreferrer');
      question.respond({ action: 'accept' });
    };
    body.push(where, full);
    actions.push(open);
  } else {
    const refused = element('p', `The page is not offered: ${checked.reason}.`);
    refused.className = 'field-problem';
    body.push(refused);
  }
  actions.push(decline);
  return { title: 'The server asks you to open a page', body, actions, submit: () => undefined };
}
