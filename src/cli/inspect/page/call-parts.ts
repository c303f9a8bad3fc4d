import { element } from './element.js';

/** A button of a Call panel view, with the id a spec (or a keyboard user's tool) finds it by. */
export function actionButton(text: string, id: string): HTMLButtonElement {
  const made = element('button', text);
  made.type = 'button';
  made.id = id;
  return made;
}

/** A row of a view's buttons. */
export function actionRow(...buttons: HTMLElement[]): HTMLElement {
  const row = element('div');
  row.className = 'actions';
  row.append(...buttons);
  return row;
}

/** A view's status line and its result, under the ids the tool view uses (`status`, `result`). */
export function outcome(): [HTMLElement, HTMLElement] {
  const status = element('p');
  status.id = 'status';
  const output = element('div');
  output.id = 'result';
  return [status, output];
}
