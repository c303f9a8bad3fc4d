// A server's URL-mode elicitation, as the page shows it: the server's
// message, the URL with its host set apart, and a consent button that opens
// the page only when clicked. The check is the client's own
// (checkElicitationUrl), made again here, since this page is what the person
// trusts: a URL that fails it is shown as refused and never made a link.
import { checkElicitationUrl } from '../../src/client/questions/elicitation-url.js';

/** The longest refused URL echoed back. */
const MAX_REFUSED_CHARS = 200;

/** What the page shows for one URL question; the DOM is built from it in app.ts. */
export type UrlQuestionView =
  | { message: string; offer: { url: string; host: string; before: string; after: string } }
  | { message: string; refused: { reason: string; text: string } };

/**
 * The parts of a URL question: the URL as the parser spells it, split
 * around its host (`before` + `host` + `after` is the whole URL) so the host
 * can be highlighted; or why it is refused, with the raw text (bounded) to
 * show as plain text.
 */
export function urlQuestionView(params: Record<string, unknown>): UrlQuestionView {
  const message = typeof params.message === 'string' ? params.message : 'The server asks you to open a page.';
  const checked = checkElicitationUrl(params.url);
  if (!checked.ok) return { message, refused: { reason: checked.reason, text: typeof params.url === 'string' ? params.url.slice(0, MAX_REFUSED_CHARS) : '' } };
  const parsed = new URL(checked.url);
  const before = `${parsed.protocol}//`;
  return { message, offer: { url: checked.url, host: checked.host, before, after: checked.url.slice(before.length + checked.host.length) } };
}

/** Opens an offered page in a new tab that cannot reach back to this one, nor learn where it was opened from. */
export function openPage(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}
