import { byId, element } from './element.js';

/** The HTTP transports the page can speak, as `connectHttp`'s `httpTransport`. */
export type Transport = 'auto' | 'streamable-http' | 'sse';

/** What the connect form says to connect to. */
export interface ConnectSettings {
  url: string;
  transport: Transport;
  headers: Record<string, string>;
}

/**
 * Binds the connect form: its URL, its transport choice and its header
 * rows (name and value; "Add a header" adds one, a row's Remove drops it).
 * `onConnect` is called with the settings on submit (Enter or Connect).
 *
 * @returns `fill`, which shows `settings` in the form (the target the page was started with)
 */
export function bindConnectForm(onConnect: (settings: ConnectSettings) => void): { fill(settings: ConnectSettings): void } {
  const form = byId('connect-form') as HTMLFormElement;
  const url = byId('connect-url') as HTMLInputElement;
  const transport = byId('connect-transport') as HTMLSelectElement;
  const rows = byId('connect-headers');

  const addRow = (name = '', value = ''): void => {
    const row = element('div');
    row.className = 'row header-row';
    const nameInput = element('input');
    nameInput.type = 'text';
    nameInput.className = 'header-name';
    nameInput.placeholder = 'Name';
    nameInput.setAttribute('aria-label', 'header name');
    nameInput.value = name;
    const valueInput = element('input');
    valueInput.type = 'text';
    valueInput.className = 'header-value';
    valueInput.placeholder = 'value';
    valueInput.setAttribute('aria-label', 'header value');
    valueInput.value = value;
    const remove = element('button', 'Remove');
    remove.type = 'button';
    remove.onclick = () => row.remove();
    row.append(nameInput, valueInput, remove);
    rows.append(row);
  };
  byId('add-header').onclick = () => addRow();

  form.onsubmit = (event) => {
    event.preventDefault();
    const headers: Record<string, string> = {};
    for (const row of rows.querySelectorAll('.header-row')) {
      const name = (row.querySelector('.header-name') as HTMLInputElement).value.trim();
      if (name !== '') headers[name] = (row.querySelector('.header-value') as HTMLInputElement).value;
    }
    onConnect({ url: url.value.trim(), transport: transport.value as Transport, headers });
  };

  return {
    fill(settings) {
      url.value = settings.url;
      transport.value = settings.transport;
      rows.replaceChildren();
      for (const [name, value] of Object.entries(settings.headers)) addRow(name, value);
    },
  };
}
