import { isObject } from '../util/values.js';

/** The MIME type of an MCP Apps view: HTML, profile `mcp-app`. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The identifier of the MCP Apps extension. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/**
 * The MCP Apps extension as a client declares it, for the client option
 * `extensions`: servers that check it register their UI tools.
 *
 * @example
 * ```ts
 * import { McpClient } from 'rxmcp';
 * import { appsExtension } from 'rxmcp/apps';
 * const mcp = McpClient.connectHttp({ url: 'https://tools.example.com/mcp', extensions: appsExtension });
 * ```
 */
export const appsExtension: { readonly [APPS_EXTENSION_ID]: { readonly mimeTypes: readonly string[] } } = Object.freeze({
  [APPS_EXTENSION_ID]: Object.freeze({ mimeTypes: Object.freeze([APP_MIME_TYPE]) }),
});

/**
 * The `ui://` resource a tool renders its results with: `_meta.ui.resourceUri`,
 * or the deprecated flat `_meta["ui/resourceUri"]`; undefined when it names none.
 */
export function appResourceUri(tool: Readonly<Record<string, unknown>>): string | undefined {
  const meta = tool._meta;
  if (!isObject(meta)) return undefined;
  const ui = meta.ui;
  if (isObject(ui) && typeof ui.resourceUri === 'string') return ui.resourceUri;
  const flat = meta['ui/resourceUri'];
  return typeof flat === 'string' ? flat : undefined;
}
