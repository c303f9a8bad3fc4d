import type { ExecuteOptions, ToolMessage } from '../tools/bridge.js';
import type { MediaLimits, ToolMedia } from '../tools/tool-media.js';
import { isObject } from '../util/values.js';

/** The images the Anthropic, OpenAI and Gemini APIs all document. */
const WEB_IMAGES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * What each vendor's tool results take. Anthropic: PNG, JPEG, GIF and WebP
 * images, each at most 5 MB as base64 (3.75 MiB of bytes); no audio in a
 * `tool_result`. OpenAI (both shapes): the same images; a
 * `function_call_output` takes no audio, and the chat-completions follow-up
 * carries images only, since `input_audio` works with audio models alone.
 * Gemini: PNG, JPEG and WebP images (it documents no GIF) and WAV, MP3, OGG
 * and FLAC audio as `inlineData` parts of the function response.
 */
export const VENDOR_MEDIA_LIMITS = {
  anthropic: { mimeTypes: WEB_IMAGES, maxItemBytes: (5 * 1024 * 1024 * 3) / 4 },
  openai: { mimeTypes: WEB_IMAGES },
  gemini: { mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/flac'] },
} as const satisfies Record<string, MediaLimits>;

/**
 * The options a vendor way-back function runs a batch with: arguments
 * checked and media inline unless the caller said otherwise, under the
 * vendor's limits with the caller's own laid over them.
 */
export function vendorOptions(options: ExecuteOptions, limits: MediaLimits): ExecuteOptions {
  return {
    ...options,
    // What was declared may be looser than the tools' own schemas.
    checkArguments: options.checkArguments ?? true,
    media: options.media ?? 'inline',
    // Limits that are not an object go on as given, for the bridge to refuse.
    mediaLimits: isObject(options.mediaLimits) ? { ...limits, ...options.mediaLimits } : (options.mediaLimits ?? limits),
  };
}

/** The media of an answer, or none. */
export function mediaOf(answer: ToolMessage): readonly ToolMedia[] {
  return Array.isArray(answer.media) ? answer.media : [];
}

/** A `data:` URL of the media, as OpenAI's image parts take it. */
export function dataUrl(media: ToolMedia): string {
  return `data:${media.mimeType};base64,${media.data}`;
}
