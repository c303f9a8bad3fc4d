import { quote } from '../util/quote.js';
import { McpClientError } from './mcp-client-error.js';

/**
 * What kept a view from being rendered: the tool is not in the server's
 * catalogue (`unknown-tool`), declares no UI resource (`no-resource`), the
 * resource is not `text/html;profile=mcp-app` or has no HTML
 * (`wrong-type`), or its HTML is larger than the host accepts (`too-large`).
 */
export type AppResourceProblem = 'unknown-tool' | 'no-resource' | 'wrong-type' | 'too-large';

/**
 * `renderApp` could not obtain an MCP Apps view it may render. Nothing was
 * mounted: the error is the Observable's only notification.
 */
export class McpAppResourceError extends McpClientError {
  override name = 'McpAppResourceError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_APP_RESOURCE';
  declare readonly code: typeof McpAppResourceError.code;

  constructor(
    /** The tool whose view was asked for. */
    readonly tool: string,
    /** What was wrong. */
    readonly problem: AppResourceProblem,
    /** The sentence after the tool's name, untrusted parts already quoted. */
    detail: string,
  ) {
    super(`tool ${quote(tool)} ${detail}`);
  }
}
