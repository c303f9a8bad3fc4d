import { element } from './element.js';
import { jsonText } from './json-text.js';
import { link, looksLikeMarkdown, markdownView } from './markdown-view.js';
import { mediaKind, mediaView, sizeOf } from './media-view.js';

// Content blocks as the page shows them: a tool result's `content`, a prompt
// message's block, a resource's contents. Every panel goes through here, so
// one place decides how a server's content reaches the page: as text set on
// elements, images and audio from data: URLs of allow-listed types, links
// only to http(s) URLs. Everything is bounded: a server may send megabytes.

/** The most blocks one view builds; the rest are counted. */
export const BLOCKS_MAX = 500;
/** The most characters of one text shown. */
export const TEXT_MAX_CHARS = 100_000;

/**
 * A view of content blocks, each as it is: text as text (Markdown rendered
 * when it reads as Markdown, with a per-block toggle back to the text as
 * sent), images and audio as `<img>` and `<audio controls>`, resource links
 * by name with their URI as text, embedded resources with their text or
 * blob, and any other block as JSON text. At most `BLOCKS_MAX` blocks.
 */
export function contentBlocksView(blocks: readonly unknown[]): HTMLElement {
  const view = element('div');
  view.className = 'content';
  for (const block of blocks.slice(0, BLOCKS_MAX)) view.append(blockView(block));
  if (blocks.length > BLOCKS_MAX) view.append(note(`… ${(blocks.length - BLOCKS_MAX).toLocaleString('en')} more blocks not shown (${blocks.length.toLocaleString('en')} in all; the page shows ${BLOCKS_MAX})`));
  return view;
}

/**
 * A resource's contents (`resources/read`, or an embedded resource's
 * `resource`): each item's URI and MIME type, then its text (Markdown for
 * `text/markdown`) or its blob (an image or audio of an allow-listed type,
 * else its size and type). At most `BLOCKS_MAX` items.
 */
export function resourceContentsView(contents: readonly unknown[]): HTMLElement {
  const view = element('div');
  view.className = 'content';
  for (const item of contents.slice(0, BLOCKS_MAX)) view.append(resourceItemView(item));
  if (contents.length > BLOCKS_MAX) view.append(note(`… ${(contents.length - BLOCKS_MAX).toLocaleString('en')} more items not shown`));
  return view;
}

function blockView(block: unknown): HTMLElement {
  if (!isRecord(block)) return jsonView(block);
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? textView(block.text, looksLikeMarkdown(block.text)) : jsonView(block);
    case 'image':
    case 'audio':
      return mediaView(block.type, block.data, block.mimeType);
    case 'resource_link':
      return resourceLinkView(block);
    case 'resource':
      return isRecord(block.resource) ? resourceItemView(block.resource, 'embedded resource') : jsonView(block);
    default:
      return jsonView(block);
  }
}

/** A text, bounded; as Markdown at first when `markdown`, with a button to switch between the two. */
function textView(text: string, markdown: boolean): HTMLElement {
  const shown = text.length > TEXT_MAX_CHARS ? text.slice(0, TEXT_MAX_CHARS) : text;
  const cut = text.length > TEXT_MAX_CHARS ? note(`… ${(text.length - TEXT_MAX_CHARS).toLocaleString('en')} more characters not shown (${text.length.toLocaleString('en')} in all)`) : undefined;
  if (!markdown) {
    const pre = element('pre', shown);
    if (!cut) return pre;
    const both = element('div');
    both.append(pre, cut);
    return both;
  }
  const box = element('div');
  box.className = 'text-block';
  const toggle = element('button');
  toggle.type = 'button';
  toggle.className = 'as';
  let asMarkdown = true;
  const show = (): void => {
    toggle.textContent = asMarkdown ? 'Show as text' : 'Show as Markdown';
    box.replaceChildren(toggle, asMarkdown ? markdownView(shown) : element('pre', shown));
  };
  toggle.onclick = () => {
    asMarkdown = !asMarkdown;
    show();
  };
  show();
  return box;
}

function resourceLinkView(block: Record<string, unknown>): HTMLElement {
  const box = element('div');
  box.className = 'resource-link';
  const name = typeof block.name === 'string' ? block.name : '(no name)';
  const title = typeof block.title === 'string' ? block.title : undefined;
  box.append(element('strong', title ?? name));
  if (title !== undefined && title !== name) box.append(' ', element('small', name));
  box.append(uriLine(block.uri, block.mimeType, typeof block.size === 'number' ? `${block.size.toLocaleString('en')} bytes` : undefined));
  if (typeof block.description === 'string') box.append(element('p', block.description.slice(0, TEXT_MAX_CHARS)));
  return box;
}

function resourceItemView(item: unknown, kind = 'resource'): HTMLElement {
  if (!isRecord(item)) return jsonView(item);
  const box = element('div');
  box.className = 'resource';
  const head = uriLine(item.uri, item.mimeType, undefined);
  head.prepend(element('strong', `${kind} `));
  box.append(head);
  if (typeof item.text === 'string') box.append(textView(item.text, typeof item.mimeType === 'string' && /^text\/(markdown|x-markdown)\b/i.test(item.mimeType)));
  else if (typeof item.blob === 'string') {
    const media = mediaKind(item.mimeType);
    box.append(media ? mediaView(media, item.blob, item.mimeType) : note(`[${sizeOf(item.blob)} of ${typeof item.mimeType === 'string' ? JSON.stringify(item.mimeType.slice(0, 100)) : 'no MIME type'}]`));
  } else box.append(note('[neither text nor blob]'));
  return box;
}

// A URI as text (a link only when it is http or https), its MIME type and size.
function uriLine(uri: unknown, mimeType: unknown, size: string | undefined): HTMLElement {
  const line = element('div');
  line.className = 'uri';
  const text = typeof uri === 'string' ? uri.slice(0, 2000) : '(no URI)';
  line.append(link(text, text) ?? element('code', text));
  const facts = [typeof mimeType === 'string' ? mimeType.slice(0, 100) : undefined, size].filter((fact) => fact !== undefined);
  if (facts.length > 0) line.append(element('small', ` · ${facts.join(' · ')}`));
  return line;
}

function jsonView(value: unknown): HTMLElement {
  const pre = element('pre', jsonText(value));
  pre.className = 'json';
  return pre;
}

function note(text: string): HTMLElement {
  const shown = element('p', text);
  shown.className = 'note';
  return shown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
