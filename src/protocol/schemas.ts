import { boolean, each, fields, number, optional, record, type Shape, shape, string } from './shapes.js';

// The shapes of the MCP results this client reads, for both eras (checked by
// hand: see shapes.ts). Each checks the members the client relies on and lets
// everything else through untouched: servers add fields, and a newer
// revision may too.

const text = optional(string);
const strings = each(string);

/** A server's `serverInfo`: a name and a version, at least. */
export const implementationSchema: Shape = shape(fields({ name: string, version: string }));

/** A 2026-07-28 `server/discover` result. */
export const discoverResultSchema: Shape = shape(fields({ supportedVersions: strings, capabilities: record, instructions: text }));

/** A 2025-11-25 `initialize` result. */
export const initializeResultSchema: Shape = shape(
  fields({ protocolVersion: string, capabilities: record, serverInfo: fields({ name: string, version: string }), instructions: text }),
);

const unsupportedVersionDataSchema = shape(fields({ supported: strings, requested: text }));

/** The versions an "unsupported protocol version" error names; none when its data is malformed. */
export function unsupportedVersionData(data: unknown): { supported: string[]; requested?: string } {
  if (unsupportedVersionDataSchema(data) !== undefined) return { supported: [] };
  // A copy, as the zod schema this replaced gave: the error's data stays the server's.
  const { supported, requested } = data as { supported: string[]; requested?: string };
  return requested === undefined ? { supported: [...supported] } : { supported: [...supported], requested };
}

const contentBlock = fields({ type: string });

/** A `tools/call` result (the call path checks it with `checkToolResult`, which asks the same). */
export const callToolResultSchema: Shape = shape(fields({ content: each(contentBlock), isError: optional(boolean) }));

/** A `resources/read` result. */
export const readResourceResultSchema: Shape = shape(fields({ contents: each(fields({ uri: string, mimeType: text })) }));

/** A `prompts/get` result. */
export const getPromptResultSchema: Shape = shape(fields({ description: text, messages: each(fields({ role: string, content: contentBlock })) }));

/** A `completion/complete` result. */
export const completeResultSchema: Shape = shape(
  fields({ completion: fields({ values: strings, total: optional(number), hasMore: optional(boolean) }) }),
);
