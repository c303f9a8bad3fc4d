import { element } from './element.js';

/**
 * Content blocks as the page shows them: a tool result's `content`, a prompt
 * message's block, a resource's contents. Every panel goes through here so
 * that one place decides how a server's content reaches the page.
 *
 * For now each block is text (a text block's text, else its type and MIME
 * type); issue #48's content lane shows every type as it is.
 */
export function contentBlocksView(blocks: readonly unknown[]): HTMLElement {
  const view = element('div');
  view.className = 'content';
  for (const block of blocks) view.append(element('pre', blockText(block)));
  return view;
}

/** A resource's contents (`resources/read`, or an embedded resource's `resource`), each text or blob. */
export function resourceContentsView(contents: readonly unknown[]): HTMLElement {
  return contentBlocksView(contents.map((item) => (isRecord(item) && typeof item.text === 'string' ? { type: 'text', text: item.text } : { type: 'blob', mimeType: isRecord(item) ? item.mimeType : undefined })));
}

function blockText(block: unknown): string {
  if (!isRecord(block)) return '[?]';
  if (typeof block.text === 'string') return block.text;
  return `[${String(block.type)}${typeof block.mimeType === 'string' ? ` ${block.mimeType}` : ''}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
