/**
 * A new element holding `text` as text: what a server says reaches the page
 * through `textContent` alone, never as markup.
 */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

/** The element of `id`, which the page's HTML holds. */
export function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}
