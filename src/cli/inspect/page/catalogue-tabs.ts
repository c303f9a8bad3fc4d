import { element } from './element.js';

/** The kinds of the catalogue, in tab order; each tab's panel is the element of that id. */
export type CatalogueKind = 'tools' | 'resources' | 'prompts' | 'tasks';

const LABELS: Record<CatalogueKind, string> = { tools: 'Tools', resources: 'Resources', prompts: 'Prompts', tasks: 'Tasks' };
const KINDS = Object.keys(LABELS) as CatalogueKind[];

/** The catalogue's tabs, as `catalogueTabs` makes them. */
export interface CatalogueTabs {
  /** Shows the tabs of `kinds` alone, and selects the first. */
  offer(kinds: readonly CatalogueKind[]): void;
  /** Writes a kind's count in its tab's label. */
  count(kind: CatalogueKind, count: number): void;
  /** Calls `listener` each time a tab is selected. */
  onSelect(listener: (kind: CatalogueKind) => void): void;
}

/**
 * Makes the tabs of the catalogue in `tablist` (buttons with role `tab`,
 * each controlling its kind's panel), none shown until `offer` says which.
 * The keyboard moves between them as the ARIA tabs pattern has it: the
 * arrow keys, Home and End select, and Tab leaves for the panel.
 */
export function catalogueTabs(tablist: HTMLElement): CatalogueTabs {
  const listeners: Array<(kind: CatalogueKind) => void> = [];
  const tabs = KINDS.map((kind) => {
    const tab = element('button', LABELS[kind]);
    tab.type = 'button';
    tab.id = `tab-${kind}`;
    tab.dataset.kind = kind;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', kind);
    tab.hidden = true;
    tab.onclick = () => select(kind);
    const panel = document.getElementById(kind) as HTMLElement;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.replaceChildren();
    return { kind, tab, panel };
  });
  tablist.replaceChildren(...tabs.map(({ tab }) => tab));
  tablist.onkeydown = (event) => {
    const shown = tabs.filter(({ tab }) => !tab.hidden);
    const at = shown.findIndex(({ tab }) => tab === document.activeElement);
    if (at < 0) return;
    const next = new Map([['ArrowRight', at + 1], ['ArrowLeft', at - 1 + shown.length], ['Home', 0], ['End', shown.length - 1]]).get(event.key);
    if (next === undefined) return;
    event.preventDefault();
    const chosen = shown[next % shown.length] as (typeof shown)[number];
    select(chosen.kind);
    chosen.tab.focus();
  };
  // Until the server says what it offers, no panel shows.
  select(undefined);

  function select(kind: CatalogueKind | undefined): void {
    for (const each of tabs) {
      const chosen = each.kind === kind;
      each.tab.setAttribute('aria-selected', String(chosen));
      each.tab.tabIndex = chosen ? 0 : -1;
      each.panel.hidden = !chosen;
    }
    if (kind !== undefined) listeners.forEach((listener) => listener(kind));
  }

  return {
    offer(kinds) {
      for (const { kind, tab } of tabs) tab.hidden = !kinds.includes(kind);
      select(KINDS.find((kind) => kinds.includes(kind)));
    },
    count(kind, count) {
      const found = tabs.find((each) => each.kind === kind);
      if (found) found.tab.textContent = `${LABELS[kind]} (${count})`;
    },
    onSelect(listener) {
      listeners.push(listener);
    },
  };
}
