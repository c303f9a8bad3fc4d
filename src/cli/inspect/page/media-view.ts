import { element } from './element.js';

/** The most base64 characters one image or audio clip may have (about 10 MB of data, 7.5 MB decoded). */
export const MEDIA_MAX_CHARS = 10 * 1024 * 1024;

// Only types a browser decodes as pictures or sound and nothing more: no SVG
// (a document, with scripts and links of its own), no HTML.
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon']);
const AUDIO_TYPES: ReadonlySet<string> = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/opus', 'audio/webm', 'audio/flac', 'audio/x-flac']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Which media element a MIME type plays in, if any: its essence (lower case, parameters dropped) must be allow-listed. */
export function mediaKind(mimeType: unknown): 'image' | 'audio' | undefined {
  const essence = essenceOf(mimeType);
  return IMAGE_TYPES.has(essence) ? 'image' : AUDIO_TYPES.has(essence) ? 'audio' : undefined;
}

/**
 * An image or audio block's base64 `data` as an `<img>` or an `<audio
 * controls>` with a `data:` URL, when its MIME type is allow-listed, its
 * data base64 and at most `MEDIA_MAX_CHARS` long; otherwise a note saying
 * which of these it is not. An image the browser cannot decode is replaced
 * by a note, as is audio it cannot play.
 */
export function mediaView(kind: 'image' | 'audio', data: unknown, mimeType: unknown): HTMLElement {
  const essence = essenceOf(mimeType);
  const typeName = typeof mimeType === 'string' ? JSON.stringify(mimeType.slice(0, 100)) : 'no MIME type';
  if (mediaKind(essence) !== kind) return note(`[${kind} of ${typeName}: not shown, as the page shows only ${kind === 'image' ? 'raster images (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO)' : 'audio (WAV, MP3, MP4/AAC, Ogg, Opus, WebM, FLAC)'}]`);
  if (typeof data !== 'string') return note(`[${kind} of ${typeName}: no data]`);
  if (data.length > MEDIA_MAX_CHARS) return note(`[${kind} of ${typeName}: ${sizeOf(data)}, too big to show (the page shows up to 10 MB of base64)]`);
  if (!BASE64.test(data)) return note(`[${kind} of ${typeName}: its data is not base64, so it is not shown]`);
  const url = `data:${essence};base64,${data}`;
  const failed = `[${kind} of ${typeName}, ${sizeOf(data)}: the browser could not ${kind === 'image' ? 'decode' : 'play'} it]`;
  if (kind === 'image') {
    const image = element('img');
    image.alt = `an image of ${typeName}`;
    image.className = 'media';
    image.onerror = () => image.replaceWith(note(failed));
    image.src = url;
    return image;
  }
  const audio = element('audio');
  audio.controls = true;
  audio.preload = 'metadata';
  audio.className = 'media';
  audio.onerror = () => audio.replaceWith(note(failed));
  audio.src = url;
  return audio;
}

/** About how many bytes `base64` decodes to, for people: "3.2 kB". */
export function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1000 ? `${bytes} bytes` : bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function essenceOf(mimeType: unknown): string {
  return typeof mimeType === 'string' ? (mimeType.split(';', 1)[0] as string).trim().toLowerCase() : '';
}

function note(text: string): HTMLElement {
  const shown = element('p', text);
  shown.className = 'note';
  return shown;
}
