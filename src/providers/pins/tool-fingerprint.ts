import type { LlmTool } from '../../tools/bridge.js';
import type { Tool, ToolAnnotations } from '../../protocol/types.js';
import { isObject } from '../../util/values.js';
import { canonicalJson } from '../../util/canonical-json.js';

/**
 * The parts of a tool's definition a pin holds: what a model reads (name,
 * description, input schema) and what a host reads or acts on (title,
 * output schema, annotations, the MCP Apps view in `_meta.ui`). Plain JSON.
 */
export interface PinnedDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  _meta?: { ui: unknown };
}

/** The longest definition pinned, as canonical JSON: a schema larger than this is not one a tool needs. */
export const MAX_DEFINITION_CHARS = 256 * 1024;

/** A definition with its canonical text and fingerprint. */
export interface Fingerprinted {
  definition: PinnedDefinition;
  /** The canonical, pretty-printed JSON of `definition` (what the fingerprint is taken of, and what a diff shows). */
  text: string;
  /** `sha256:` and the hex SHA-256 of `text` as UTF-8. */
  fingerprint: string;
}

const FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * The pinned parts of a tool as its server declared it (`declaration`), or,
 * for a provider that cannot say, as the model is shown it (`shown`, its
 * parameters read as the input schema) with the annotations the provider
 * reports. Own properties only: a `__proto__` key is a key like any other.
 */
export function definitionOf(name: string, declaration: Tool | undefined, shown: LlmTool | undefined, annotations: ToolAnnotations | undefined): PinnedDefinition {
  const definition: PinnedDefinition = { name };
  if (declaration) {
    const source = declaration as unknown as Record<string, unknown>;
    for (const field of FIELDS) if (Object.hasOwn(source, field) && source[field] !== undefined) (definition as unknown as Record<string, unknown>)[field] = source[field];
    const meta = Object.hasOwn(source, '_meta') ? source['_meta'] : undefined;
    if (isObject(meta) && Object.hasOwn(meta, 'ui') && meta['ui'] !== undefined) definition._meta = { ui: meta['ui'] };
    return definition;
  }
  const fn = shown?.function;
  if (fn && typeof fn.description === 'string') definition.description = fn.description;
  if (fn && fn.parameters !== undefined) definition.inputSchema = fn.parameters;
  if (annotations !== undefined) definition.annotations = annotations;
  return definition;
}

/**
 * A definition's canonical text and SHA-256 fingerprint, with Web Crypto
 * (the same in browsers and Node).
 * @throws UncanonicalError for a definition JSON cannot carry or one over `MAX_DEFINITION_CHARS`.
 */
export async function fingerprintOf(definition: PinnedDefinition): Promise<Fingerprinted> {
  const text = canonicalJson(definition, { maxChars: MAX_DEFINITION_CHARS, pretty: true });
  const known = digests.get(text);
  if (known !== undefined) return { definition, text, fingerprint: known };
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  const fingerprint = `sha256:${hex}`;
  if (remembered + text.length > MAX_REMEMBERED_CHARS) {
    digests.clear();
    remembered = 0;
  }
  digests.set(text, fingerprint);
  remembered += text.length;
  return { definition, text, fingerprint };
}

// Every listing fingerprints every tool, and most definitions never change:
// the digests of recent texts are kept (bounded by their total length), so
// a listing costs a walk and a string lookup per tool, not a hash.
const MAX_REMEMBERED_CHARS = 4 * 1024 * 1024;
const digests = new Map<string, string>();
let remembered = 0;

/** Whether a value is a fingerprint as `fingerprintOf` writes them. */
export function isFingerprint(value: unknown): value is string {
  return typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value);
}
