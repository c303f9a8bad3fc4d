import { quote } from '../util/quote.js';
import { McpClientError } from './mcp-client-error.js';

/**
 * Why a tool result failed its `outputSchema`: its `structuredContent` does
 * not match (`mismatch`), it has none although the tool declares a schema
 * (`missing`), or the schema or the content could not be checked to a
 * conclusion (`unchecked`: a `$ref` outside the schema, a `$ref` cycle,
 * nesting or work past the client's bounds). rxmcp fails closed on all three.
 */
export type OutputSchemaProblem = 'mismatch' | 'missing' | 'unchecked';

const LEADS: Record<OutputSchemaProblem, string> = {
  mismatch: 'returned structuredContent that breaks its outputSchema',
  missing: 'declares an outputSchema but returned no structuredContent',
  unchecked: 'returned structuredContent that could not be checked against its outputSchema',
};

/**
 * A tool that declares an `outputSchema` answered (without `isError`) with
 * `structuredContent` that breaks it, with none, or with a schema the client
 * could not check. The result is withheld: what the caller would see is not
 * what the tool promised. The client option `validateStructuredContent:
 * false` turns the check off.
 */
export class McpOutputSchemaError extends McpClientError {
  override name = 'McpOutputSchemaError' as const;

  /** The stable code of this class's errors. */
  static override readonly code = 'MCP_OUTPUT_SCHEMA';
  declare readonly code: typeof McpOutputSchemaError.code;

  constructor(
    /** The tool that answered. */
    readonly tool: string,
    /** What went wrong: `mismatch`, `missing` or `unchecked`. */
    readonly problem: OutputSchemaProblem,
    /** The first violation, or why the check could not be made, as a sentence whose untrusted parts are quoted and cut short. */
    readonly violation: string,
    options?: { cause?: unknown },
  ) {
    super(`tool ${quote(tool)} ${LEADS[problem]}${problem === 'missing' ? '' : `: ${violation}`}`, options);
  }
}

