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

export const toolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: object,
  outputSchema: object.optional(),
  annotations: z
    .looseObject({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
});

export const resourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

export const resourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

export const promptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(z.looseObject({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() }))
    .optional(),
});

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

/** One page of a list result: the items under `key`, and where the next page starts. */
function pageSchema<T extends z.ZodType>(key: string, item: T) {
  return z.looseObject({ [key]: z.array(item), nextCursor: z.string().optional() });
}

// Built once: a zod schema is costly to construct, cheap to reuse.
export const toolPageSchema = pageSchema('tools', toolSchema);
export const resourcePageSchema = pageSchema('resources', resourceSchema);
export const resourceTemplatePageSchema = pageSchema('resourceTemplates', resourceTemplateSchema);
export const promptPageSchema = pageSchema('prompts', promptSchema);
