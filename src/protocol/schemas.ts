import { z } from 'zod';

// The shapes of the MCP results this client reads, for both eras. Each checks
// the members the client relies on and lets everything else through untouched:
// servers add fields, and a newer revision may too.

const object = z.record(z.string(), z.unknown());

export const implementationSchema = z.looseObject({ name: z.string(), version: z.string() });

export const discoverResultSchema = z.looseObject({
  supportedVersions: z.array(z.string()),
  capabilities: object,
  instructions: z.string().optional(),
});

export const initializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: object,
  serverInfo: implementationSchema,
  instructions: z.string().optional(),
});

const unsupportedVersionDataSchema = z.looseObject({
  supported: z.array(z.string()),
  requested: z.string().optional(),
});

/** The versions an "unsupported protocol version" error names; none when its data is malformed. */
export function unsupportedVersionData(data: unknown): { supported: string[]; requested?: string } {
  const parsed = unsupportedVersionDataSchema.safeParse(data);
  return parsed.success ? parsed.data : { supported: [] };
}

const contentBlockSchema = z.looseObject({ type: z.string() });

export const callToolResultSchema = z.looseObject({
  content: z.array(contentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

export const readResourceResultSchema = z.looseObject({
  contents: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional() })),
});

export const getPromptResultSchema = z.looseObject({
  description: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: contentBlockSchema })),
});

export const completeResultSchema = z.looseObject({
  completion: z.looseObject({
    values: z.array(z.string()),
    total: z.number().optional(),
    hasMore: z.boolean().optional(),
  }),
});
