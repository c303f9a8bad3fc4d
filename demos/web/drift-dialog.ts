// Pins in the page: each server's tools held to the definitions first seen
// here (kept in localStorage, so a reload, or tomorrow's visit, still
// knows them), and a dialog that asks the person about a tool whose server
// changed it. Everything the server wrote is set as textContent: a
// description carrying markup or a script reads as the text it is.
import type { DriftQuestion, Pin, PinsStore } from 'rxmcp';

/** The most bytes of pins kept for one server: localStorage is small and shared by the page. */
const MAX_CHARS = 1_000_000;

/**
 * A `PinsStore` in localStorage under `key` (one key per server URL).
 * Fails closed: an entry that is not what this page wrote makes `read`
 * throw, and `Pins` then hides the tools it could not check; so does a
 * write the browser refuses (quota) or that would outgrow the bound.
 */
export class StoredPins implements PinsStore {
  constructor(private readonly key: string) {}

  read(tools: readonly string[]): Map<string, Pin> {
    const all = this.all();
    return new Map(tools.flatMap((tool) => (all.has(tool) ? [[tool, all.get(tool) as Pin]] : [])));
  }

  write(pins: readonly Pin[], options: { replace: boolean }): void {
    const all = this.all();
    for (const pin of pins) if (options.replace || !all.has(pin.tool)) all.set(pin.tool, pin);
    const text = JSON.stringify([...all.values()]);
    if (text.length > MAX_CHARS) throw new Error(`the pins of this server would take more than ${MAX_CHARS} characters`);
    localStorage.setItem(this.key, text);
  }

  // A Map: a tool named `__proto__` is a key like any other.
  private all(): Map<string, Pin> {
    const text = localStorage.getItem(this.key);
    const all = new Map<string, Pin>();
    if (text === null) return all;
    const entries: unknown = JSON.parse(text);
    if (!Array.isArray(entries)) throw new Error('the stored pins are not a list');
    for (const entry of entries) {
      const pin = entry as Partial<Pin> | null;
      if (typeof pin?.tool !== 'string' || typeof pin.fingerprint !== 'string' || typeof pin.definition !== 'object' || pin.definition === null || typeof pin.pinnedAt !== 'string') {
        throw new Error('a stored pin is not one');
      }
      all.set(pin.tool, pin as Pin);
    }
    return all;
  }
}

/**
 * An `onDrift` for `Pins`: a modal dialog naming the tool, with the diff
 * from the pinned definition to the one the server gives now, and two
 * buttons, Approve (`#drift-approve`) and Keep hidden (`#drift-keep`).
 * Resolves with true for Approve; Escape keeps the tool hidden.
 */
export function driftDialog(question: DriftQuestion): Promise<boolean> {
  const dialog = document.createElement('dialog');
  dialog.id = 'drift';
  const text = <K extends keyof HTMLElementTagNameMap>(tag: K, content: string): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag);
    node.textContent = content;
    return node;
  };
  const intro = text('p', 'The server changed the definition of ');
  intro.append(text('code', question.tool), '. It stays hidden, and its calls refused, until you approve the change.');
  const diff = text('pre', question.diff);
  diff.id = 'drift-diff';
  const approve = text('button', 'Approve the new definition');
  approve.id = 'drift-approve';
  const keep = text('button', 'Keep it hidden');
  keep.id = 'drift-keep';
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(approve, keep);
  dialog.append(text('h2', 'A tool changed'), intro, text('p', 'What changed (- pinned, + now), in the server\u2019s words:'), diff, actions);
  document.body.append(dialog);
  return new Promise((resolve) => {
    const answer = (approved: boolean) => () => {
      dialog.close();
      dialog.remove();
      resolve(approved);
    };
    approve.onclick = answer(true);
    keep.onclick = answer(false);
    dialog.oncancel = answer(false);
    dialog.showModal();
  });
}
