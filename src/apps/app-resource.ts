import { map, type Observable, switchMap } from 'rxjs';
import type { McpClient } from '../client/mcp-client.js';
import { McpAppResourceError } from '../errors/app-errors.js';
import type { Tool } from '../protocol/types.js';
import { quote } from '../util/quote.js';
import { isObject } from '../util/values.js';
import { APP_MIME_TYPE, appResourceUri } from './apps-extension.js';

/** The CSP origins a resource may declare, by key. */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The browser features a resource may ask for, by key. */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A tool's view, ready to mount. */
export interface AppResource {
  /** The tool, as the server's catalogue lists it. */
  tool: Tool;
  /** The `ui://` URI it was read from. */
  uri: string;
  /** The view's HTML. */
  html: string;
  /** Its `_meta.ui.csp`, reduced to the four keys and their strings; undefined when it declares none. */
  csp?: AppCsp;
  /** Its `_meta.ui.permissions`, reduced to the four keys; undefined when it asks for none. */
  permissions?: AppPermissions;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/**
 * Reads the view of `toolName` from its server: the tool from the catalogue,
 * its UI resource with `resources/read`. Errors with `McpAppResourceError`
 * when there is no such tool, no resource, a resource of another type or
 * without HTML, or HTML past `maxHtmlChars`.
 */
export function loadAppResource(client: McpClient, toolName: string, maxHtmlChars: number): Observable<AppResource> {
  return client.listTools().pipe(
    switchMap((tools) => {
      const tool = tools.find((entry) => entry.name === toolName);
      if (tool === undefined) throw new McpAppResourceError(toolName, 'unknown-tool', 'is not in the server\'s catalogue');
      const uri = appResourceUri(tool);
      if (uri === undefined) throw new McpAppResourceError(toolName, 'no-resource', 'declares no UI resource (_meta.ui.resourceUri)');
      return client.readResource(uri).pipe(map((result) => toResource(tool, uri, result.contents, maxHtmlChars)));
    }),
  );
}

function toResource(tool: Tool, uri: string, contents: ReadonlyArray<Record<string, unknown>>, maxHtmlChars: number): AppResource {
  const content = contents.find((entry) => entry.uri === uri) ?? contents[0];
  const mimeType = content?.mimeType;
  if (content === undefined || typeof mimeType !== 'string' || mimeType.replace(/\s+/g, '').toLowerCase() !== APP_MIME_TYPE) {
    throw new McpAppResourceError(tool.name, 'wrong-type', `has a UI resource ${quote(uri)} of type ${quote(mimeType)}, not ${JSON.stringify(APP_MIME_TYPE)}`);
  }
  const html = htmlOf(tool.name, uri, content, maxHtmlChars);
  const ui = isObject(content._meta) && isObject(content._meta.ui) ? content._meta.ui : {};
  const resource: AppResource = { tool, uri, html };
  if (isObject(ui.csp)) {
    const declared = ui.csp;
    const csp: AppCsp = {};
    for (const key of CSP_KEYS) {
      const list = declared[key];
      if (Array.isArray(list)) csp[key] = list.filter((entry): entry is string => typeof entry === 'string');
    }
    resource.csp = csp;
  }
  if (isObject(ui.permissions)) {
    const asked = ui.permissions;
    const permissions: AppPermissions = {};
    for (const key of PERMISSION_KEYS) if (isObject(asked[key])) permissions[key] = {};
    resource.permissions = permissions;
  }
  return resource;
}

function htmlOf(toolName: string, uri: string, content: Record<string, unknown>, maxHtmlChars: number): string {
  const tooLarge = (): McpAppResourceError =>
    new McpAppResourceError(toolName, 'too-large', `has a UI resource ${quote(uri)} larger than ${maxHtmlChars} characters (maxHtmlChars)`);
  if (typeof content.text === 'string') {
    if (content.text.length > maxHtmlChars) throw tooLarge();
    return content.text;
  }
  if (typeof content.blob === 'string') {
    // Base64 takes four characters for three bytes, and a byte is at most one character.
    if (content.blob.length > Math.ceil(maxHtmlChars / 3) * 4) throw tooLarge();
    let html: string;
    try {
      html = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(content.blob), (char) => char.charCodeAt(0)));
    } catch {
      throw new McpAppResourceError(toolName, 'wrong-type', `has a UI resource ${quote(uri)} whose blob is not base64 UTF-8 text`);
    }
    if (html.length > maxHtmlChars) throw tooLarge();
    return html;
  }
  throw new McpAppResourceError(toolName, 'wrong-type', `has a UI resource ${quote(uri)} with neither text nor blob`);
}
