// The brand of the base class. Its key is older than the per-class brands
// and stays as it is, so that copies of rxmcp from before them still
// recognise this copy's errors as theirs, and the other way round.
const brand = Symbol.for('rxmcp.McpClientError');

/** The brand of the error class whose `code` this is: `Symbol.for`, so every copy of rxmcp finds the same key. */
function brandOf(code: string): symbol {
  return Symbol.for(`rxmcp.error.${code}`);
}

// Classes whose prototypes (and their ancestors') already carry their brand.
const branded = new WeakSet<object>();

/**
 * Brands the prototype of every class from `target` up to (not including)
 * McpClientError that declares a `code` of its own. Done by the first
 * instance made, rather than by a line beside each class, so that an error
 * class cannot be written without its brand.
 */
function brandClasses(target: object): void {
  if (branded.has(target)) return;
  for (let at = target; at !== McpClientError && typeof at === 'function'; at = Object.getPrototypeOf(at) as object) {
    if (!Object.hasOwn(at, 'code')) continue;
    const key = brandOf((at as typeof McpClientError).code);
    const prototype = (at as typeof McpClientError).prototype;
    if (!Object.hasOwn(prototype, key)) Object.defineProperty(prototype, key, { value: true });
  }
  branded.add(target);
}

/**
 * The base of every error rxmcp raises on its own behalf.
 *
 * One `catch` that checks `instanceof McpClientError` separates "the MCP
 * conversation went wrong" from "the code around it went wrong". A tool result
 * with `isError: true` is not an error: it is returned as a value.
 *
 * `instanceof` works across realms and duplicated installs of rxmcp, for this
 * class and for each of its subclasses: every class with a `code` of its own
 * is recognised through a `Symbol.for` brand made from that code, as undici
 * recognises its errors.
 *
 * `code` is a stable string naming the kind of failure (`MCP_ERROR` here,
 * `MCP_TIMEOUT` on a `McpTimeoutError`, …), the same on the class (as a
 * static) and on its instances. The two errors that carry a server's
 * JSON-RPC error, `McpProtocolError` and `McpTaskError`, keep that number in
 * their instances' `code`, as they always have; their classes' static `code`
 * is still the string.
 *
 * @example
 * ```ts
 * try {
 *   await firstValueFrom(mcp.callTool('deploy', { env: 'prod' }));
 * } catch (error) {
 *   if (error instanceof McpClientError) console.error('MCP failed:', error.code, error.message);
 * }
 * ```
 */
export class McpClientError extends Error {
  /** The stable code of errors of this class. */
  static readonly code: string = 'MCP_ERROR';

  override name: string = 'McpClientError';

  /**
   * What kind of failure this is, as a stable string (the class's static
   * `code`); for `McpProtocolError` and `McpTaskError`, the JSON-RPC error
   * code the server sent (a number, or `undefined` when there was none).
   */
  readonly code: string | number | undefined;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = (new.target as typeof McpClientError).code;
    brandClasses(new.target);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    let key: symbol;
    if (isBaseClass(this)) key = brand;
    else if (Object.hasOwn(this, 'code')) key = brandOf(this.code);
    // A subclass without a code of its own (one of the caller's) has no brand: plain `instanceof`.
    else return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true;
  }
}

Object.defineProperty(McpClientError.prototype, brand, { value: true });

// Asked from inside the class: the class is named outside its own body: a mention inside makes the bundle give it an inner name (_McpClientError), which McpClientError.name would show.
function isBaseClass(target: unknown): boolean {
  return target === McpClientError;
}
