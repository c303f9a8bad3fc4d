import { boolean, each, fields, object, optional, type Rule, type Shape, shape, string } from './shapes.js';

// The list pages' shapes (see shapes.ts for how they are checked): a
// catalogue is re-read whenever a server says it changed, and its pages are
// the largest results there are. Each checks the members the client relies
// on and lets everything else through; the page is handed on as it came.

/** Checks one result against a page's shape: the first problem as `path: expected …`, or undefined. */
export type PageShape = Shape;

function page(key: string, item: Rule): PageShape {
  return shape(fields({ [key]: each(item), nextCursor: optional(string) }));
}

const text = optional(string);
const flag = optional(boolean);

export const toolPage = page(
  'tools',
  fields({
    name: string,
    title: text,
    description: text,
    inputSchema: object,
    outputSchema: optional(object),
    annotations: optional(fields({ title: text, readOnlyHint: flag, destructiveHint: flag, idempotentHint: flag, openWorldHint: flag })),
  }),
);

export const resourcePage = page('resources', fields({ uri: string, name: string, title: text, description: text, mimeType: text }));

export const resourceTemplatePage = page(
  'resourceTemplates',
  fields({ uriTemplate: string, name: string, title: text, description: text, mimeType: text }),
);

export const promptPage = page(
  'prompts',
  fields({
    name: string,
    title: text,
    description: text,
    arguments: optional(each(fields({ name: string, description: text, required: flag }))),
  }),
);
