import { quote } from '../util/quote.js';

// Icons come from the server and end up in a terminal or an <img>: only a
// `src` a client can show without fetching script or leaking to odd schemes
// is kept (as the specification's icon security notes ask: https or data:
// only, a strict allowlist of image types). SVG is on the list: rxmcp only
// ever shows an icon through <img>, where a browser runs no script and loads
// nothing an SVG links to; whoever inlines one (innerHTML, <object>) must
// sanitize it first. Each item's icons are rewritten once, where a list or
// the server's description is read, so every consumer sees the same checked
// list.

/** An icon of a tool, prompt, resource, template or server (2025-11-25), as the client keeps it. */
export interface Icon {
  /** An `https:` URL, or a `data:` URL of one of the image types below. */
  src: string;
  /** One of the image types below, when the server gave one. */
  mimeType?: string;
  /** `WxH` or `any`, each. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** The image types an icon may have (`image/jpg` is a common alias the specification names). */
export const ICON_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp', 'image/svg+xml']);
/** The most icons kept per item; the rest are dropped. */
export const ICON_COUNT = 8;
/** The longest `data:` URL kept (64 KiB of text, about 48 KiB of image). */
export const ICON_DATA_LENGTH = 64 * 1024;
/** The longest `https:` URL kept. */
export const ICON_URL_LENGTH = 2048;
/** Icons past this many in one item are not even looked at. */
const ICONS_SCANNED = 64;
const SIZES = 16;
const SIZE = /^(?:any|[1-9]\d{0,4}x[1-9]\d{0,4})$/;
// Controls (C0, DEL, C1), spaces and the characters that would end an attribute or a line.
const UNSAFE = /[\u0000-\u0020\u007f-\u009f"'<>\\`\u2028\u2029]/;
const DATA = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[a-z0-9.+-]+)*)(;base64)?,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why a `src` is not kept, or `undefined` when it is. */
export function iconSrcProblem(src: unknown): string | undefined {
  if (typeof src !== 'string') return 'a src that is not a string';
  if (src.length > ICON_DATA_LENGTH) return `a src over ${ICON_DATA_LENGTH} characters`;
  const data = DATA.exec(src);
  if (data) {
    const type = (data[1] as string).toLowerCase();
    if (!ICON_TYPES.has(type)) return `a data: URL of type ${quote(type)}`;
    const body = src.slice(data[0].length);
    if (data[3] ? !BASE64.test(body) : UNSAFE.test(body)) return 'a data: URL with characters it may not hold';
    return undefined;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(src)?.[1]?.toLowerCase();
  if (scheme !== 'https') return scheme ? `the ${quote(`${scheme}:`)} scheme` : 'a src with no scheme';
  if (src.length > ICON_URL_LENGTH) return `an https: URL over ${ICON_URL_LENGTH} characters`;
  if (UNSAFE.test(src)) return 'an https: URL with characters it may not hold';
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return 'an https: URL that does not parse';
  }
  if (url.username !== '' || url.password !== '') return 'an https: URL carrying credentials';
  return undefined;
}

/** The icon as kept (own members only, each checked), or why it is dropped. */
function keptIcon(icon: unknown): Icon | string {
  if (typeof icon !== 'object' || icon === null || Array.isArray(icon)) return 'an icon that is not an object';
  const given = icon as Record<string, unknown>;
  const src = Object.hasOwn(given, 'src') ? given.src : undefined;
  const problem = iconSrcProblem(src);
  if (problem) return problem;
  const kept: Icon = { src: src as string };
  const mimeType = Object.hasOwn(given, 'mimeType') ? given.mimeType : undefined;
  if (mimeType !== undefined) {
    if (typeof mimeType !== 'string' || !ICON_TYPES.has(mimeType.toLowerCase())) return `an icon of type ${typeof mimeType === 'string' ? quote(mimeType) : 'unknown'}`;
    kept.mimeType = mimeType.toLowerCase();
  }
  const sizes = Object.hasOwn(given, 'sizes') ? given.sizes : undefined;
  if (Array.isArray(sizes)) {
    const good = sizes.slice(0, SIZES).filter((size): size is string => typeof size === 'string' && SIZE.test(size));
    if (good.length > 0) kept.sizes = good;
  }
  const theme = Object.hasOwn(given, 'theme') ? given.theme : undefined;
  if (theme === 'light' || theme === 'dark') kept.theme = theme;
  return kept;
}

/** What checking a batch of items' icons dropped: how many icons, from how many items, and the first reason. */
export interface IconReport {
  dropped: number;
  items: number;
  first?: string;
}

/**
 * Rewrites the `icons` of each item in place to those that pass (at most
 * {@link ICON_COUNT}), deleting the member when none do, and says what was
 * dropped. Items without `icons` are not touched.
 */
export function keepSafeIcons(items: readonly unknown[], labelOf: (item: Record<string, unknown>) => string): IconReport {
  const report: IconReport = { dropped: 0, items: 0 };
  for (const item of items) {
    if (typeof item !== 'object' || item === null || !Object.hasOwn(item, 'icons')) continue;
    const owner = item as Record<string, unknown>;
    const given = owner.icons;
    const kept: Icon[] = [];
    let dropped = 0;
    let why: string | undefined;
    if (!Array.isArray(given)) {
      dropped = 1;
      why = 'icons that are not a list';
    } else {
      for (let i = 0; i < given.length; i++) {
        if (i >= ICONS_SCANNED || kept.length >= ICON_COUNT) {
          dropped += given.length - i;
          why ??= `more than ${ICON_COUNT} icons`;
          break;
        }
        const icon = keptIcon(given[i]);
        if (typeof icon === 'string') {
          dropped++;
          why ??= icon;
        } else kept.push(icon);
      }
    }
    if (kept.length > 0) owner.icons = kept;
    else delete owner.icons;
    if (dropped > 0) {
      report.dropped += dropped;
      report.items++;
      report.first ??= `${labelOf(owner)}: ${why}`;
    }
  }
  return report;
}

/** One sentence for `onWarn` about what `keepSafeIcons` dropped from `where`; `undefined` when nothing was. */
export function iconWarning(where: string, report: IconReport): string | undefined {
  if (report.dropped === 0) return undefined;
  return `${where}: dropped ${report.dropped} icon${report.dropped === 1 ? '' : 's'} from ${report.items} item${report.items === 1 ? '' : 's'} (first: ${report.first}); only https: and data: image icons are kept`;
}
