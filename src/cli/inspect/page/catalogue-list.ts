import { element } from './element.js';

/** The most entries one list of the catalogue shows: a server may list 100,000 resources. */
export const MAX_SHOWN = 200;

/**
 * A list of the catalogue: the first `MAX_SHOWN` items as entries, then a
 * line saying how many more there are. Choosing an entry marks it chosen.
 *
 * @param entry builds one item's button (see `catalogueEntry`)
 */
export function catalogueList<T>(items: readonly T[], entry: (item: T) => HTMLButtonElement): HTMLElement {
  const list = element('div');
  list.className = 'catalogue-list';
  for (const item of items.slice(0, MAX_SHOWN)) {
    const button = entry(item);
    button.addEventListener('click', () => {
      list.querySelectorAll('.chosen').forEach((other) => other.classList.remove('chosen'));
      button.classList.add('chosen');
    });
    list.append(button);
  }
  if (items.length > MAX_SHOWN) {
    const more = element('p', `${items.length - MAX_SHOWN} more not shown`);
    more.className = 'more';
    list.append(more);
  }
  return list;
}

/** One entry of a catalogue list: its title, then smaller lines (a name, a URI, a MIME type); empty lines are left out. */
export function catalogueEntry(title: string, lines: ReadonlyArray<string | undefined>, choose: () => void): HTMLButtonElement {
  const button = element('button', title);
  button.type = 'button';
  button.className = 'entry';
  for (const line of lines) if (line !== undefined && line !== '' && line !== title) button.append(element('small', line));
  button.onclick = choose;
  return button;
}
