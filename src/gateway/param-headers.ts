// A 2026-07-28 tools/call may repeat arguments in Mcp-Param-* headers, and the SDK checks those only for
// tools registered on an McpServer; the gateway serves its provider's tools itself, so the check is here:
// the kept input schemas that say which tools declare such headers, and the comparison of headers and body.
import type { LlmTool, ToolProvider } from '../tools/bridge.js';
import { isObject } from '../util/values.js';
import type { ParsedBody } from './node-http.js';

/** How deep into `properties` an `x-mcp-header` declaration is looked for; a schema is untrusted. */
const MAX_DEPTH = 32;
const PRIMITIVE = new Set(['string', 'integer', 'boolean', 'number']);
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * The gateway's check of `Mcp-Param-{Name}` headers, before a request
 * reaches the SDK: a 2026-07-28 tools/call whose headers disagree with its
 * arguments is answered 400, -32020.
 *
 * It keeps each tool's input schema when it declares such headers (null when
 * it declares none), by name, as the provider last listed them (at a
 * tools/list, at the first POST after a list change, or when a call names a
 * tool not kept), dropped when an upstream's tools change. A call to a tool
 * that declares none then reads no body twice and walks no catalogue. Only
 * schemas are kept: tools/list and every call still go through the provider.
 */
export class ParamHeaders {
  private schemas: Promise<Map<string, unknown>> | undefined;
  private generation = 0;

  /** `provider` lists every tool a host may call, under the names hosts call them by. */
  constructor(private readonly provider: Pick<ToolProvider, 'toolsForLlm'>) {}

  /** The provider's tools, read now; what a host is shown is what its calls are checked against. */
  async readTools(): Promise<LlmTool[]> {
    const generation = this.generation;
    const listed = await this.provider.toolsForLlm();
    // A list change since the read leaves nothing kept.
    if (generation === this.generation) this.schemas = Promise.resolve(headerSchemasOf(listed));
    return listed;
  }

  /** Forgets the kept schemas: an upstream's tools changed. */
  toolsChanged(): void {
    this.generation++;
    this.schemas = undefined;
  }

  /** The 400 (-32020) answer to a tools/call whose headers and body disagree, or `undefined` to serve it; `body`, when given, is the request's own, parsed. */
  async refuse(request: Request, body?: ParsedBody): Promise<Response | undefined> {
    if (request.method !== 'POST') return undefined;
    // The SDK refuses a request whose Mcp-Method or Mcp-Name header disagrees with its body, so these headers
    // may tell which requests have nothing to check: another method, or a kept tool that declares no headers.
    // A request without them, a Base64-encoded name or a name not kept is read as before.
    const method = request.headers.get('mcp-method');
    if (method !== null && method !== 'tools/call') return undefined;
    const named = request.headers.get('mcp-name');
    if (method !== null && named !== null && !named.startsWith('=?base64?') && (await this.kept()).get(named) === null) return undefined;
    let message: unknown = body?.json;
    if (!body) {
      try {
        message = await request.clone().json();
      } catch {
        return undefined;
      }
    }
    if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params) || typeof message.params.name !== 'string') return undefined;
    const { name, arguments: args } = message.params;
    const schema = await this.schemaOf(name);
    const mismatch = schema === null ? undefined : paramHeaderMismatch(schema, args, request.headers);
    if (mismatch === undefined) return undefined;
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32020, message: `Bad Request: the request headers and body disagree: ${mismatch}` } }), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
  }

  // The kept schema of a tool; a name not kept has the provider listed again. Null for a tool that declares
  // no headers, is not listed, or when the listing fails (nothing to check against).
  private async schemaOf(name: string): Promise<unknown> {
    const kept = await this.kept();
    if (kept.has(name)) return kept.get(name);
    return (await this.kept(true)).get(name) ?? null;
  }

  // The kept schemas (empty when the provider's listing fails: nothing to check against).
  private kept(again = false): Promise<Map<string, unknown>> {
    if (again) this.schemas = undefined;
    if (!this.schemas) {
      const generation = this.generation;
      const reading = this.provider.toolsForLlm().then((tools) => headerSchemasOf(tools));
      this.schemas = reading;
      // A listing that failed is not kept: the next request reads the provider again.
      reading.catch(() => {
        if (this.schemas === reading && this.generation === generation) this.schemas = undefined;
      });
    }
    return this.schemas.catch(() => new Map<string, unknown>());
  }
}

/**
 * The 2026-07-28 Streamable HTTP check of a `tools/call`'s `Mcp-Param-{Name}`
 * headers against its body: for each property the tool's input schema marks
 * with `x-mcp-header` (reached through `properties` only), a value the
 * arguments carry must come with its header, decoding (plain, or the
 * `=?base64?…?=` form) to the same text. The SDK makes this check only for
 * tools registered on an `McpServer`; the gateway serves its tools itself.
 *
 * @returns what disagrees (for a -32020 answer), or `undefined` when all agree.
 */
export function paramHeaderMismatch(schema: unknown, args: unknown, headers: Headers): string | undefined {
  for (const { name, type, path } of headerDeclarations(schema)) {
    const problem = check(name, type, valueAt(args, path), headers, path);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Whether an input schema marks any property with `x-mcp-header` (as
 * `paramHeaderMismatch` reads it): only such a tool's calls have headers to
 * check, so the gateway reads a body twice for those alone.
 */
export function declaresParamHeaders(schema: unknown): boolean {
  return !headerDeclarations(schema).next().done;
}

// The header-marked properties of a schema, walked iteratively and bounded: a schema is untrusted.
function* headerDeclarations(schema: unknown): Generator<{ name: string; type: string; path: string[] }> {
  const pending: Array<{ node: unknown; path: string[] }> = [{ node: schema, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop() as { node: unknown; path: string[] };
    if (!isObject(node)) continue;
    const name = node['x-mcp-header'];
    if (path.length > 0 && typeof name === 'string' && name !== '' && typeof node.type === 'string' && PRIMITIVE.has(node.type)) {
      yield { name, type: node.type, path };
    }
    const properties = node.properties;
    if (isObject(properties) && path.length < MAX_DEPTH) {
      for (const key of Object.keys(properties)) pending.push({ node: properties[key], path: [...path, key] });
    }
  }
}

function check(name: string, type: string, value: unknown, headers: Headers, path: string[]): string | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined) return undefined;
  const header = `Mcp-Param-${name}`;
  const sent = headers.get(header);
  const where = JSON.stringify(path.join('.'));
  if (sent === null) return `the arguments carry ${where} but the ${header} header is missing`;
  const decoded = decode(sent);
  if (decoded === undefined) return `the ${header} header is not valid Base64 UTF-8`;
  const same = (type === 'integer' || type === 'number') && typeof value === 'number' && /^-?\d+(\.\d+)?$/.test(decoded) ? Number(decoded) === value : decoded === text;
  return same ? undefined : `the ${header} header does not match the arguments' ${where}`;
}

function decode(value: string): string | undefined {
  const base64 = SENTINEL.exec(value)?.[1];
  if (base64 === undefined) return value;
  if (base64.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

function valueAt(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

// Each listed tool's input schema when it declares Mcp-Param headers, else null, by name (the first tool of a name, as a lookup by name finds).
function headerSchemasOf(tools: LlmTool[]): Map<string, unknown> {
  const kept = new Map<string, unknown>();
  for (const tool of tools) {
    const name = tool.function?.name;
    if (typeof name !== 'string' || kept.has(name)) continue;
    kept.set(name, declaresParamHeaders(tool.function.parameters) ? tool.function.parameters : null);
  }
  return kept;
}
