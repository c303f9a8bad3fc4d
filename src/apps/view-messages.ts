import { z } from 'zod';

// The messages a view may send the host, as the MCP Apps schema (and, for
// tools/call, resources/read, ping and notifications/message, the MCP core
// schema) defines their params. Checked after the window transport has
// bounded and copied the message; a request whose params break its schema
// is answered "invalid params", a notification is dropped.

const displayMode = z.enum(['inline', 'fullscreen', 'pip']);
const record = z.record(z.string(), z.unknown());

const annotations = z
  .object({
    audience: z.array(z.enum(['user', 'assistant'])).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.string().optional(),
  })
  .strict();

const meta = record.optional();

/** One content block, as `ui/message` and `ui/update-model-context` carry them. */
export const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), annotations: annotations.optional(), _meta: meta }).strict(),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string(), annotations: annotations.optional(), _meta: meta }).strict(),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations: annotations.optional(), _meta: meta }).strict(),
  z.looseObject({ type: z.literal('resource_link'), uri: z.string(), name: z.string() }),
  z.looseObject({ type: z.literal('resource'), resource: z.looseObject({ uri: z.string() }) }),
]);

const implementation = z.looseObject({ name: z.string(), version: z.string() });

/** The params of every request a view may send, by method. */
export const viewRequestParams = {
  'ui/initialize': z.looseObject({
    appInfo: implementation,
    appCapabilities: z.looseObject({ availableDisplayModes: z.array(displayMode).optional() }),
    protocolVersion: z.string(),
  }),
  'tools/call': z.looseObject({ name: z.string().min(1).max(512), arguments: record.optional() }),
  'resources/read': z.looseObject({ uri: z.string().min(1).max(8192) }),
  'ui/message': z.object({ role: z.literal('user'), content: z.array(contentBlockSchema) }).strict(),
  'ui/open-link': z.object({ url: z.string().max(8192) }).strict(),
  'ui/update-model-context': z.object({ content: z.array(contentBlockSchema).optional(), structuredContent: record.optional() }).strict(),
  'ui/request-display-mode': z.object({ mode: displayMode }).strict(),
  ping: z.looseObject({}),
} as const;

/** The params of every notification a view (or the proxy) may send, by method. */
export const viewNotificationParams = {
  'ui/notifications/initialized': z.looseObject({}),
  'ui/notifications/size-changed': z.object({ width: z.number().finite().min(0).optional(), height: z.number().finite().min(0).optional() }).strict(),
  'ui/notifications/request-teardown': z.looseObject({}),
  'ui/notifications/sandbox-proxy-ready': z.looseObject({}),
  'notifications/message': z.looseObject({
    level: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']),
    logger: z.string().optional(),
    data: z.unknown(),
  }),
  'notifications/cancelled': z.looseObject({ requestId: z.union([z.string(), z.number()]), reason: z.string().optional() }),
} as const;

/** A method a view may call on the host. */
export type ViewRequestMethod = keyof typeof viewRequestParams;
/** A notification a view may send the host. */
export type ViewNotificationMethod = keyof typeof viewNotificationParams;
/** The checked params of a view's request `M`. */
export type ViewRequestParams<M extends ViewRequestMethod> = z.infer<(typeof viewRequestParams)[M]>;

/** The checked params of a view's request, or undefined when the method is unknown or the params break its schema. */
export function viewRequest<M extends ViewRequestMethod>(method: M, params: unknown): ViewRequestParams<M> | undefined {
  const parsed = viewRequestParams[method].safeParse(params ?? {});
  return parsed.success ? (parsed.data as ViewRequestParams<M>) : undefined;
}

/** Whether `method` is a request a view may send. */
export function isViewRequestMethod(method: string): method is ViewRequestMethod {
  return Object.prototype.hasOwnProperty.call(viewRequestParams, method);
}

/** The checked params of a view's notification, or undefined when unknown or malformed. */
export function viewNotification<M extends ViewNotificationMethod>(method: M, params: unknown): z.infer<(typeof viewNotificationParams)[M]> | undefined {
  if (!Object.prototype.hasOwnProperty.call(viewNotificationParams, method)) return undefined;
  const parsed = viewNotificationParams[method].safeParse(params ?? {});
  return parsed.success ? (parsed.data as z.infer<(typeof viewNotificationParams)[M]>) : undefined;
}
