import { McpClientError } from '../errors/mcp-client-error.js';
import type { Tool } from '../protocol/types.js';
import { isObject } from '../util/values.js';

/**
 * Who makes a batch of tool calls: the model (the default), or an MCP App's
 * view, whose calls a host passes on with `caller: 'app'`.
 */
export type ToolCaller = 'model' | 'app';

/** Whom a tool is for, as its `_meta.ui.visibility` says (MCP Apps). */
export interface ToolVisibility {
  model: boolean;
  app: boolean;
}

const BOTH: Readonly<ToolVisibility> = Object.freeze({ model: true, app: true });
const MODEL_ONLY: Readonly<ToolVisibility> = Object.freeze({ model: true, app: false });
const APP_ONLY: Readonly<ToolVisibility> = Object.freeze({ model: false, app: true });
const NEITHER: Readonly<ToolVisibility> = Object.freeze({ model: false, app: false });
// Neither, because the value could not be read (kept apart to warn about it).
const UNREADABLE: Readonly<ToolVisibility> = Object.freeze({ model: false, app: false });

// Only two values mean anything; a list longer than this was not written
// for a host to read, and reading it is not worth a scan.
const MAX_ENTRIES = 16;

const known = new WeakMap<object, Readonly<ToolVisibility>>();

/**
 * Whom a tool is for. No `_meta.ui.visibility` means both the model and the
 * app (the extension's default), and so does a `null` anywhere on that path
 * (what many serializers write for a field left unset: it declares nothing);
 * a list of strings means whom it names (an empty list: nobody). Anything
 * else on that path (a `_meta` or `ui` that is not an object, a
 * `visibility` that is a string, a number, an object, a list holding a
 * non-string or longer than 16 entries) cannot be read, and
 * is read as "neither": the server is trusted about its own tools, but a
 * value this client cannot understand must not hand the model, or a view,
 * a tool the server may have meant to keep from it. Only own properties are
 * read, so nothing on a prototype can widen what a tool is for. Worked out
 * once per tool object, so a catalogue the client keeps is not read again
 * for every call.
 */
export function toolVisibility(tool: Tool): Readonly<ToolVisibility> {
  // The common case, a tool without _meta, costs one read (a _meta found
  // only on a prototype is looked at below, and found to be no tool's own).
  if (tool._meta === undefined || tool._meta === null) return BOTH;
  let visibility = known.get(tool);
  if (visibility === undefined) {
    const meta = ownValue(tool, '_meta');
    visibility = meta === undefined || meta === null ? BOTH : readVisibility(meta);
    known.set(tool, visibility);
  }
  return visibility;
}

/** Whether a tool is hidden from everybody because its `_meta.ui.visibility` could not be read. */
export function hasUnreadableVisibility(tool: Tool): boolean {
  return toolVisibility(tool) === UNREADABLE;
}

/**
 * The tools a caller may see and call, in order; the same array when it may
 * see them all (the common case: no tool says otherwise).
 */
export function visibleTools<T extends Tool>(tools: readonly T[], caller: ToolCaller): readonly T[] {
  let hidden = false;
  for (const tool of tools) {
    if (!toolVisibility(tool)[caller]) {
      hidden = true;
      break;
    }
  }
  return hidden ? tools.filter((tool) => toolVisibility(tool)[caller]) : tools;
}

/**
 * The caller an `ExecuteOptions` names, `'model'` when it names none.
 *
 * @throws McpClientError for any other value.
 */
export function callerOf(options: { caller?: unknown }): ToolCaller {
  const { caller } = options;
  if (caller === undefined || caller === 'model') return 'model';
  if (caller === 'app') return 'app';
  throw new McpClientError(`option caller must be 'model' or 'app', not ${JSON.stringify(String(caller))}`);
}

function readVisibility(meta: unknown): Readonly<ToolVisibility> {
  if (!isObject(meta)) return UNREADABLE;
  const ui = ownValue(meta, 'ui');
  if (ui === undefined || ui === null) return BOTH;
  if (!isObject(ui)) return UNREADABLE;
  const visibility = ownValue(ui, 'visibility');
  if (visibility === undefined || visibility === null) return BOTH;
  if (!Array.isArray(visibility) || visibility.length > MAX_ENTRIES) return UNREADABLE;
  let model = false;
  let app = false;
  for (let i = 0; i < visibility.length; i++) {
    const entry: unknown = visibility[i];
    if (typeof entry !== 'string') return UNREADABLE;
    if (entry === 'model') model = true;
    else if (entry === 'app') app = true;
  }
  return model ? (app ? BOTH : MODEL_ONLY) : app ? APP_ONLY : NEITHER;
}

function ownValue(holder: unknown, key: string): unknown {
  return typeof holder === 'object' && holder !== null && Object.prototype.hasOwnProperty.call(holder, key)
    ? (holder as Record<string, unknown>)[key]
    : undefined;
}
