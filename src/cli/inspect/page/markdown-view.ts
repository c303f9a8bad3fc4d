import { element } from './element.js';

// A small Markdown reader for what servers write: headings, paragraphs,
// emphasis, inline code, fenced code, lists, links and block quotes. It
// builds elements and sets their text, so nothing a server writes is ever
// read as HTML (raw HTML in the text stays text). It reads line by line and
// nests nothing: a quote's or a list item's text is inline text, so no input
// can make it recurse.

/** The longest text rendered as Markdown; a longer one is shown as text. */
export const MARKDOWN_MAX_CHARS = 100_000;

// Every pattern is bounded, so a text full of openers never costs more than a
// constant per character.
const INLINE = /`([^`\n]{1,1000})`|\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)|\*\*([^*\n]{1,1000})\*\*|__([^_\n]{1,1000})__|\*([^*\s](?:[^*\n]{0,1000}))\*|\b_([^_\s](?:[^_\n]{0,1000}))_\b/g;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;

/**
 * Whether `text` reads as Markdown: a heading, a fence, a quote or list line,
 * a link, bold text or inline code. The page renders such a text block as
 * Markdown at first, with a toggle back to the text as sent.
 */
export function looksLikeMarkdown(text: string): boolean {
  if (text.length > MARKDOWN_MAX_CHARS) return false;
  return /^(#{1,6}\s|\s{0,3}(```|~~~)|\s{0,3}>\s|\s*([-*+]|\d{1,9}[.)])\s)/m.test(text) || /\[[^\]\n]{1,500}\]\(https?:\/\/[^()\s]{1,2000}\)|\*\*[^*\n]{1,1000}\*\*|`[^`\n]{1,1000}`/.test(text);
}

/** `text` as Markdown, built as elements whose text is set, never parsed as HTML; links only for http(s) URLs. */
export function markdownView(text: string): HTMLElement {
  const view = element('div');
  view.className = 'markdown';
  const lines = text.split(/\r?\n/);
  let paragraph: string[] = [];
  let list: HTMLElement | undefined;
  const endParagraph = (): void => {
    if (paragraph.length > 0) view.append(inline('p', paragraph.join(' ')));
    paragraph = [];
  };
  const endBlocks = (): void => {
    endParagraph();
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line);
    if (fence) {
      endBlocks();
      const code: string[] = [];
      while (++i < lines.length && !(lines[i] as string).trimStart().startsWith(fence[1] as string)) code.push(lines[i] as string);
      const pre = element('pre');
      pre.append(element('code', code.join('\n')));
      view.append(pre);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endBlocks();
      // The page's own panels use h2: a server's headings sit below them.
      view.append(inline(`h${Math.min(6, (heading[1] as string).length + 2)}` as 'h3', heading[2] as string));
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      endBlocks();
      const quoted: string[] = [quote[1] as string];
      while (i + 1 < lines.length && QUOTE.test(lines[i + 1] as string)) quoted.push((QUOTE.exec(lines[++i] as string) as RegExpExecArray)[1] as string);
      const block = element('blockquote');
      block.append(inline('p', quoted.join(' ')));
      view.append(block);
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      endParagraph();
      const ordered = item[2] !== undefined;
      if (!list || (list.tagName === 'OL') !== ordered) {
        list = element(ordered ? 'ol' : 'ul');
        if (ordered && item[2] !== '1') (list as HTMLOListElement).start = Number(item[2]);
        view.append(list);
      }
      list.append(inline('li', item[3] as string));
      continue;
    }
    if (line.trim() === '') {
      endBlocks();
      continue;
    }
    // A line under a list item continues it.
    if (list && paragraph.length === 0 && /^\s+\S/.test(line)) {
      list.lastElementChild?.append(' ', ...inlineNodes(line.trim()));
      continue;
    }
    list = undefined;
    paragraph.push(line.trim());
  }
  endParagraph();
  return view;
}

// One element of `tag` holding `text`'s inline Markdown.
function inline<K extends keyof HTMLElementTagNameMap>(tag: K, text: string): HTMLElementTagNameMap[K] {
  const node = element(tag);
  node.append(...inlineNodes(text));
  return node;
}

// Code, links, bold and italic, one level deep: what they hold is text.
function inlineNodes(text: string): Array<Node | string> {
  const nodes: Array<Node | string> = [];
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > at) nodes.push(text.slice(at, match.index));
    at = match.index + match[0].length;
    const [whole, code, label, href, strong1, strong2, em1, em2] = match;
    if (code !== undefined) nodes.push(element('code', code));
    else if (label !== undefined) nodes.push(link(label, href as string) ?? whole);
    else if (strong1 !== undefined || strong2 !== undefined) nodes.push(element('strong', (strong1 ?? strong2) as string));
    else nodes.push(element('em', (em1 ?? em2) as string));
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

/**
 * A link to `href` when it is an absolute http(s) URL, opened in a new tab
 * that cannot reach back to the page; `undefined` for any other (a
 * `javascript:`, `data:` or relative URL), which the caller shows as text.
 */
export function link(label: string, href: string): HTMLAnchorElement | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const anchor = element('a', label);
  anchor.href = url.href;
  anchor.target = '_blank';
  anchor.rel = 'noopener noreferrer';
  return anchor;
}
