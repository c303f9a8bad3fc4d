import { McpClientError } from '../errors/mcp-client-error.js';

/** An image or audio clip a tool returned, handed to the model with its answer (`ExecuteOptions.media: 'inline'`). */
export interface ToolMedia {
  type: 'image' | 'audio';
  /** The MIME type the server declared, checked against the data's own first bytes. */
  mimeType: string;
  /** The bytes, base64-encoded, exactly as the server sent them. */
  data: string;
}

/**
 * How much media one batch hands the model, and which kinds
 * (`ExecuteOptions.mediaLimits`). Sizes count the decoded bytes. What does
 * not fit or is not taken stays a text line saying why.
 */
export interface MediaLimits {
  /** The most bytes of media all the batch's answers carry together. Default 15 MiB (20 MiB as base64). */
  maxBytes?: number;
  /** The most images and clips all the batch's answers carry together. Default 10. */
  maxItems?: number;
  /** The most bytes one image or clip may have. Default: `maxBytes`. */
  maxItemBytes?: number;
  /** The MIME types the model's API takes. Default: PNG, JPEG, GIF and WebP images, WAV and MP3 audio. */
  mimeTypes?: readonly string[];
}

/** The limits a batch runs under when `mediaLimits` leaves them out. */
export const DEFAULT_MEDIA_LIMITS: Readonly<Required<Omit<MediaLimits, 'maxItemBytes'>>> = {
  maxBytes: 15 * 1024 * 1024,
  maxItems: 10,
  mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'audio/wav', 'audio/mpeg'],
};

type Limits = Required<MediaLimits>;

// The first bytes each type starts with; a type rxmcp cannot recognise is
// never attached, since nothing then says the bytes are what they claim.
const SIGNATURES: Record<string, (head: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  'image/webp': (b) => riff(b, 'WEBP'),
  'audio/wav': (b) => riff(b, 'WAVE'),
  'audio/mpeg': (b) => startsWith(b, [0x49, 0x44, 0x33]) || (b[0] === 0xff && b[1] !== undefined && (b[1] & 0xe0) === 0xe0),
  'audio/ogg': (b) => startsWith(b, [0x4f, 0x67, 0x67, 0x53]),
  'audio/flac': (b) => startsWith(b, [0x66, 0x4c, 0x61, 0x43]),
};

// Other names servers use for the same types.
const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'audio/x-wav': 'audio/wav', 'audio/wave': 'audio/wav', 'audio/mp3': 'audio/mpeg' };

// The type a server declared, as the limits name it: its parameters
// dropped, lower case, another name read as the usual one. The tables are
// read by own keys only: a type is the server's, and may be "__proto__".
function canonicalType(declared: string): string {
  const end = declared.indexOf(';');
  const type = (end === -1 ? declared : declared.slice(0, end)).trim().toLowerCase();
  return Object.hasOwn(ALIASES, type) ? (ALIASES[type] as string) : type;
}

/** The MIME types whose bytes rxmcp can check, and so the only ones it ever attaches. */
export const CHECKABLE_MEDIA_TYPES: readonly string[] = Object.keys(SIGNATURES);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What is left of one batch's media budget. Created by the outermost layer
 * that sees the batch (see `readBack`) and shared, through the options every
 * layer passes on, by all the providers the batch is split across, so a
 * `Registry` of many servers hands the model no more than one budget.
 */
export class MediaLedger {
  private items = 0;
  private bytes = 0;

  constructor(readonly limits: Limits) {}

  /**
   * Whether a block may be attached, and if not why. Only its length is read
   * until it fits the budget; then its characters are checked to be base64
   * and its first bytes to match its type. What is attached is charged.
   */
  admit(type: 'image' | 'audio', declared: string, data: string): { media: ToolMedia } | { refusal: string } {
    const mimeType = canonicalType(declared);
    const size = base64Bytes(data);
    if (!this.limits.mimeTypes.includes(mimeType)) return { refusal: `this model API does not take ${declared}` };
    const sniff = Object.hasOwn(SIGNATURES, mimeType) ? SIGNATURES[mimeType] : undefined;
    if (!sniff) return { refusal: `rxmcp cannot check that its bytes are ${declared}` };
    if (size > this.limits.maxItemBytes) return { refusal: `larger than the ${this.limits.maxItemBytes} bytes one ${type} may have` };
    if (this.items >= this.limits.maxItems) return { refusal: `the batch's limit of ${this.limits.maxItems} media items is reached` };
    if (this.bytes + size > this.limits.maxBytes) return { refusal: `the batch's media budget of ${this.limits.maxBytes} bytes has ${this.limits.maxBytes - this.bytes} left` };
    if (data.length % 4 !== 0 || !BASE64.test(data)) return { refusal: 'its data is not valid base64' };
    if (!sniff(headBytes(data))) return { refusal: `its bytes are not ${declared}` };
    this.items += 1;
    this.bytes += size;
    return { media: { type, mimeType, data } };
  }
}

/**
 * The limits `options.mediaLimits` asks for, over the defaults.
 *
 * @throws McpClientError for a size or count that is not a whole number of at least 0, or types that are not a list of strings.
 */
export function mediaLimitsOf(options: { mediaLimits?: unknown }): Limits {
  const given = options.mediaLimits ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new McpClientError('option mediaLimits must be an object');
  const { maxBytes = DEFAULT_MEDIA_LIMITS.maxBytes, maxItems = DEFAULT_MEDIA_LIMITS.maxItems, mimeTypes = DEFAULT_MEDIA_LIMITS.mimeTypes } = given as MediaLimits;
  const maxItemBytes = (given as MediaLimits).maxItemBytes ?? maxBytes;
  for (const [name, value] of Object.entries({ maxBytes, maxItems, maxItemBytes })) {
    if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) throw new McpClientError(`option mediaLimits.${name} must be a whole number, 0 or more; got ${JSON.stringify(value)}`);
  }
  if (!Array.isArray(mimeTypes) || mimeTypes.length > 64 || !mimeTypes.every((type) => typeof type === 'string')) {
    throw new McpClientError('option mediaLimits.mimeTypes must be a list of at most 64 MIME types');
  }
  return { maxBytes, maxItems, maxItemBytes, mimeTypes: mimeTypes.map((type) => type.toLowerCase()) };
}

/**
 * Reads `options.media`: `'text'` (the default) or `'inline'`.
 *
 * @throws McpClientError for any other value.
 */
export function mediaModeOf(options: { media?: unknown }): 'inline' | 'text' {
  const value = options.media ?? 'text';
  if (value === 'inline' || value === 'text') return value;
  throw new McpClientError(`option media must be 'inline' or 'text'; got ${JSON.stringify(value)}`);
}

/** The size in bytes of base64 data, worked out from its length alone. */
export function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

// Enough bytes for every signature above, decoded from the first 16 characters only.
function headBytes(data: string): Uint8Array {
  const head = data.slice(0, 16);
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of head) {
    if (char === '=') break;
    value = (value << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, n) => bytes[n] === byte);
}

function riff(bytes: Uint8Array, form: string): boolean {
  return startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && [...form].every((char, n) => bytes[8 + n] === char.charCodeAt(0));
}

/** The options key under which a batch's ledger travels through the layers. */
export const MEDIA_LEDGER: unique symbol = Symbol.for('rxmcp.mediaLedger');

/** The batch's ledger: the one the options carry, or a new one under the options' limits. */
export function mediaLedgerOf(options: { [MEDIA_LEDGER]?: MediaLedger; mediaLimits?: unknown }): MediaLedger {
  return options[MEDIA_LEDGER] ?? new MediaLedger(mediaLimitsOf(options));
}
