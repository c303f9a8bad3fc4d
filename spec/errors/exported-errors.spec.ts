import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { McpClientError } from 'rxmcp';

// Every error class the package exports, from the root and from every
// subpath in package.json's "exports", found by walking the entries rather
// than by a list: an error added anywhere is checked here, and fails here
// until it has a name, a code and its brand.

type ErrorClass = (new (...args: never[]) => Error) & { readonly code?: unknown };

const root = join(__dirname, '..', '..');
const exportsMap = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>;

/** `rxmcp`, then `rxmcp/<subpath>` for every subpath the package exports. */
const ENTRIES = Object.keys(exportsMap)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'rxmcp' : `rxmcp/${key.slice(2)}`));

/**
 * Arguments that construct each error, by class name. A new error class
 * fails the walk until it is given a line here: that is the point, since its
 * checks need an instance.
 */
const SAMPLES: Record<string, unknown[]> = {
  McpClientError: ['unknown option: onElicits'],
  McpTimeoutError: ['tools/call', 5],
  McpCancelledError: ['tools/call'],
  McpInputLoopExceededError: ['tools/call', 8],
  McpServerGoneError: [1, null, 'boom'],
  McpSpawnFailedError: ['missing-server', 'ENOENT'],
  McpTransportClosedError: ['tools/list'],
  McpProtocolError: ['Method not found', -32601, undefined, 'tools/list'],
  McpUnsupportedVersionError: [['2026-07-28'], ['2025-06-18']],
  McpUrlElicitationRequiredError: ['sign in first', [{ url: 'https://auth.example/go', message: 'Sign in', elicitationId: 'e1' }], undefined, 'tools/call'],
  McpCapabilityError: ['resources.subscribe', 'resources/subscribe'],
  McpHttpError: [500, 'oops', 'https://tools.example/mcp'],
  McpNetworkError: ['https://tools.example/mcp', 'connection refused'],
  McpAuthError: ['token', 'refused'],
  McpConfigError: [{ source: '.mcp.json', server: 'git', key: 'args' }, 'not an array'],
  McpOutputSchemaError: ['add', 'missing', ''],
  McpStoreError: ['RedisLeaseTable', 'redis://localhost:6379 (ns)', 'acquire', 'timed out'],
  McpTaskError: ['task-1', 'failed', 'it broke', -32603],
  McpAppResourceError: ['chart', 'no-resource', 'declares no UI resource'],
};

/**
 * The errors whose instance `code` is the JSON-RPC error code the server
 * sent, a number (or undefined), rather than the class's string: the field
 * had that meaning before the string codes came (API.md fixes it for
 * McpProtocolError). docs/calls.md#errors says so.
 */
const JSON_RPC_CODES = new Set(['McpProtocolError', 'McpUrlElicitationRequiredError', 'McpTaskError']);

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === 'function' && (value === Error || Object.prototype.isPrototypeOf.call(Error, value));
}

/** Every error class exported by the entries as loaded through `load`, by export name (the same class from two entries once). */
function exportedErrors(load: (entry: string) => Record<string, unknown>): Map<string, { error: ErrorClass; entries: string[] }> {
  const found = new Map<string, { error: ErrorClass; entries: string[] }>();
  for (const entry of ENTRIES) {
    for (const [name, value] of Object.entries(load(entry))) {
      if (!isErrorClass(value)) continue;
      const known = found.get(name);
      if (known) {
        expect(known.error).toBe(value);
        known.entries.push(entry);
      } else found.set(name, { error: value, entries: [entry] });
    }
  }
  return found;
}

const errors = exportedErrors((entry) => require(entry));

let copy: Map<string, { error: ErrorClass; entries: string[] }> | undefined;

/** The same entries loaded a second time, as a second install of rxmcp would be: other classes, other prototypes. Loaded once. */
function secondCopy(): Map<string, { error: ErrorClass; entries: string[] }> {
  if (!copy) {
    jest.isolateModules(() => {
      copy = exportedErrors((entry) => require(entry));
    });
  }
  return copy as Map<string, { error: ErrorClass; entries: string[] }>;
}

function sample(name: string, error: ErrorClass): Error {
  const args = SAMPLES[name];
  if (!args) throw new Error(`${name} is exported but has no sample arguments in SAMPLES: add a line for it`);
  return new (error as unknown as new (...args: unknown[]) => Error)(...args);
}

const named = [...errors].map(([name, { error }]) => [name, error] as const);

describe('the exported errors', () => {
  it('are found in the root entry and in the subpaths, the contract among them', () => {
    expect(ENTRIES).toEqual(expect.arrayContaining(['rxmcp', 'rxmcp/protocol', 'rxmcp/apps']));
    expect([...errors.keys()]).toEqual(
      expect.arrayContaining([
        'McpClientError',
        'McpTimeoutError',
        'McpServerGoneError',
        'McpProtocolError',
        'McpUnsupportedVersionError',
        'McpSpawnFailedError',
        'McpTransportClosedError',
        'McpCancelledError',
        'McpInputLoopExceededError',
        'McpHttpError',
        'McpAuthError',
        'McpAppResourceError',
      ]),
    );
    expect(Object.keys(SAMPLES).filter((name) => !errors.has(name))).toEqual([]);
  });

  it.each(named)('%s extends McpClientError', (_name, error) => {
    expect(error === McpClientError || Object.prototype.isPrototypeOf.call(McpClientError, error)).toBe(true);
    expect(sample(_name, error)).toBeInstanceOf(McpClientError);
  });

  it.each(named)('%s is named after its class', (name, error) => {
    expect(error.name).toBe(name);
    expect(sample(name, error).name).toBe(name);
  });

  it.each(named)('%s has a stable code of its own, which its instances carry', (name, error) => {
    expect(Object.hasOwn(error, 'code')).toBe(true);
    expect(error.code).toMatch(/^MCP_[A-Z]+(_[A-Z]+)*$/);
    const instance = sample(name, error) as Error & { code?: unknown };
    // A URL elicitation error is always the server's -32042, so its sample names no number.
    if (name === 'McpUrlElicitationRequiredError') expect(instance.code).toBe(-32042);
    else if (JSON_RPC_CODES.has(name)) expect(instance.code).toBe(SAMPLES[name]?.find((arg) => typeof arg === 'number'));
    else expect(instance.code).toBe(error.code);
  });

  it('give every class a code no other class has', () => {
    const codes = named.map(([, error]) => error.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it.each(named)('%s is recognised by instanceof across two copies of rxmcp, and only as itself and its ancestors', (name, error) => {
    const other = secondCopy().get(name)?.error as ErrorClass;
    expect(other).toBeDefined();
    expect(other).not.toBe(error);
    const theirs = sample(name, other);
    const ours = sample(name, error);
    expect(Object.getPrototypeOf(theirs)).not.toBe(Object.getPrototypeOf(ours));
    expect(theirs instanceof error).toBe(true);
    expect(ours instanceof other).toBe(true);
    expect(theirs instanceof McpClientError).toBe(true);
    for (const [otherName, sibling] of named) {
      const related = sibling === error || Object.prototype.isPrototypeOf.call(sibling, error);
      expect([otherName, theirs instanceof sibling]).toEqual([otherName, related]);
    }
  });

  it.each(named)('%s recognises its brand on a value from another realm', (name, error) => {
    const code = error.code as string;
    const key = name === 'McpClientError' ? 'rxmcp.McpClientError' : `rxmcp.error.${code}`;
    const foreign = runInNewContext(`(() => { const e = new Error('elsewhere'); Object.defineProperty(e, Symbol.for(${JSON.stringify(key)}), { value: true }); return e; })()`);
    expect(foreign instanceof Error).toBe(false);
    expect(foreign instanceof error).toBe(true);
    expect(runInNewContext('new Error("elsewhere")') instanceof error).toBe(false);
  });

  it('leaves a subclass without a code of its own to plain instanceof', () => {
    class MyTimeout extends (errors.get('McpTimeoutError')?.error as unknown as new (method: string, ms: number) => Error) {}
    const timeout = sample('McpTimeoutError', errors.get('McpTimeoutError')?.error as ErrorClass);
    expect(timeout instanceof MyTimeout).toBe(false);
    expect(new MyTimeout('tools/call', 1) instanceof MyTimeout).toBe(true);
    expect(new MyTimeout('tools/call', 1)).toBeInstanceOf(McpClientError);
  });
});
