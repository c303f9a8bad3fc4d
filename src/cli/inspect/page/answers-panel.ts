import { BehaviorSubject, type Observable } from 'rxjs';
import type { Root } from 'rxmcp';
import { rootProblem } from '../../../client/roots.js';
import { byId, element } from './element.js';

/** The OpenAI-compatible Chat Completions endpoint that may answer sampling requests. */
export interface ModelSettings {
  /** The API's base URL, such as `https://api.openai.com/v1` (`/chat/completions` is added). */
  url: string;
  /** Sent as `Authorization: Bearer`; kept in the page's memory alone. */
  apiKey: string;
  model: string;
}

/** What the person set up to answer a server's questions with. */
export interface Answers {
  /** The roots offered to servers, latest first on subscribing: the client's `roots` option. */
  roots$: Observable<readonly Root[]>;
  /** The model to ask for a sampling reply, or `undefined` when none is set up. */
  model(): ModelSettings | undefined;
}

/**
 * Builds the Answers section: the roots offered to servers (a list of
 * `file://` URIs with names, each removable, and a row to add one; a URI the
 * client would refuse is refused here, with the reason), and the model that
 * may answer sampling requests. Both apply at once: a new root list reaches
 * the connected server as soon as it is edited (`notifications/roots/list_changed`,
 * or the next question of a 2026-07-28 server), and the model's settings are
 * read when a question is asked. Nothing is stored: a reload forgets them.
 */
export function bindAnswers(): Answers {
  const section = byId('answers');
  section.hidden = false;
  const roots = new BehaviorSubject<readonly Root[]>([]);

  const list = element('ul');
  list.id = 'roots';
  const uri = textInput('root-uri', 'file:///home/me/project', 'root URI');
  const name = textInput('root-name', 'name (optional)', 'root name');
  const add = element('button', 'Add a root');
  add.type = 'submit';
  add.id = 'add-root';
  const problem = element('p');
  problem.id = 'roots-problem';
  problem.className = 'field-problem';
  problem.hidden = true;
  const row = element('div');
  row.className = 'row';
  row.append(uri, name, add);
  const adding = element('form');
  adding.append(row, problem);

  const render = (current: readonly Root[]): void => {
    list.replaceChildren(
      ...current.map((root, index) => {
        const item = element('li');
        item.append(element('code', root.uri));
        if (root.name !== undefined) item.append(element('span', ` ${root.name}`));
        const remove = element('button', 'Remove');
        remove.type = 'button';
        remove.setAttribute('aria-label', `remove ${root.uri}`);
        remove.onclick = () => roots.next(roots.value.filter((_, at) => at !== index));
        item.append(' ', remove);
        return item;
      }),
    );
    if (current.length === 0) list.append(element('li', 'none: servers are offered no roots'));
  };
  roots.subscribe(render);

  adding.onsubmit = (event) => {
    event.preventDefault();
    const root: Root = { uri: uri.value.trim(), ...(name.value.trim() === '' ? {} : { name: name.value.trim() }) };
    const refused = rootProblem(root) ?? (roots.value.some((one) => one.uri === root.uri) ? 'is offered already' : undefined);
    problem.textContent = refused === undefined ? '' : `${JSON.stringify(root.uri)} ${refused}`;
    problem.hidden = refused === undefined;
    if (refused !== undefined) return;
    roots.next([...roots.value, root]);
    uri.value = '';
    name.value = '';
  };

  const modelUrl = textInput('model-url', 'https://api.openai.com/v1', 'model API base URL');
  modelUrl.type = 'url';
  const apiKey = textInput('model-key', 'API key', 'model API key');
  apiKey.type = 'password';
  apiKey.autocomplete = 'off';
  const modelName = textInput('model-name', 'model, such as gpt-4o-mini', 'model name');

  section.replaceChildren(
    element('h2', 'Answers'),
    element('h3', 'Roots'),
    list,
    adding,
    element('h3', 'Sampling model'),
    element('p', 'An OpenAI-compatible Chat Completions API that may draft a reply to a sampling request; you still approve it before it is sent. The key stays in this page\u2019s memory.'),
    modelUrl,
    apiKey,
    modelName,
  );

  return {
    roots$: roots.asObservable(),
    model: () => {
      const url = modelUrl.value.trim();
      return url === '' ? undefined : { url, apiKey: apiKey.value, model: modelName.value.trim() };
    },
  };
}

function textInput(id: string, placeholder: string, label: string): HTMLInputElement {
  const input = element('input');
  input.type = 'text';
  input.id = id;
  input.placeholder = placeholder;
  input.setAttribute('aria-label', label);
  return input;
}
