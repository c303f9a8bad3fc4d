import type { Tool } from 'rxmcp';

// One tool of the demo's catalogue: its icon, its title (the name meant for
// people) with the name beside it, and the server's behaviour hints as
// badges. Everything shown is the server's: text goes in as text nodes, and
// the icon's src has been checked by the client (https: or a data: image,
// bounded); it is looked at again here before it becomes an <img>, which
// runs no script even for SVG and is fetched without a referrer.

const HINTS = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
] as const;

/** The first icon the page may show, as an <img> 16 pixels square, or `undefined`. */
function iconOf(tool: Tool): HTMLImageElement | undefined {
  const src = tool.icons?.find((icon) => /^(?:https:|data:image\/(?:png|jpe?g|gif|webp|svg\+xml)[;,])/i.test(icon.src))?.src;
  if (src === undefined) return undefined;
  const img = document.createElement('img');
  img.referrerPolicy = 'no-referrer';
  img.alt = '';
  img.width = 16;
  img.height = 16;
  img.loading = 'lazy';
  img.decoding = 'async';
  img.className = 'tool-icon';
  img.src = src;
  return img;
}

/** The button that chooses `tool`, as the catalogue lists it. */
export function toolButton(tool: Tool): HTMLButtonElement {
  const button = document.createElement('button');
  const icon = iconOf(tool);
  if (icon) button.append(icon);
  const title = tool.title ?? tool.annotations?.title;
  button.append(document.createTextNode(title ?? tool.name));
  if (title !== undefined) {
    const name = document.createElement('small');
    name.className = 'tool-name';
    name.textContent = tool.name;
    button.append(' ', name);
  }
  for (const [hint, word] of HINTS) {
    if (tool.annotations?.[hint] !== true) continue;
    const badge = document.createElement('small');
    badge.className = 'tool-hint';
    badge.textContent = word;
    // The server's claim, not a fact the page checked.
    badge.title = `the server says this tool is ${word}`;
    button.append(' ', badge);
  }
  button.title = tool.description ?? '';
  button.dataset.tool = tool.name;
  return button;
}
