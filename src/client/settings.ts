// The client's options checked and resolved into its settings: defaults
// filled in, hooks wrapped, capabilities worked out. The option types and
// key lists themselves are in options.ts.
import { McpClientError } from '../errors/mcp-client-error.js';
import { McpUnsupportedVersionError } from '../errors/protocol-errors.js';
import type { InputHooks } from '../protocol/input-request.js';
import { DEFAULT_LIST_LIMITS, type ListLimits } from '../protocol/list-walk.js';
import { TASKS_EXTENSION } from '../protocol/tasks.js';
import { type ClientCapabilities, LOGGING_LEVELS, type LoggingLevel, type LogMessage, type ToolProgress } from '../protocol/types.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from '../protocol/versions.js';
import { checkCount, checkDuration } from '../util/checks.js';
import { quote } from '../util/quote.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { isObject, messageOf } from '../util/values.js';
import { warnHook } from '../util/warn-hook.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './calls/call-budget.js';
import { CLIENT_OPTION_KEYS, type ClientOptions, type McpClientOptions } from './options.js';
import { capabilitiesOf } from './questions/input-hooks.js';
import { RootsOption } from './roots.js';
import { clientTasksCapability } from './tasks/client-side-tasks.js';
import { checkTracing, type TracingSettings } from './tracing/tracing-options.js';


const FUNCTION_OPTIONS = ['onElicit', 'onElicitUrl', 'onSample', 'onListRoots', 'onLog', 'onProgress', 'onWarn'] as const;

/**
 * Validates `protocolVersions`: at least one modern version, best first. A
 * modern version is any revision dated after the last handshake-era one; a
 * legacy version is refused, since legacy is reached by the handshake.
 */
export function checkVersions(versions: readonly string[] | undefined): readonly string[] {
  if (versions === undefined) return MODERN_VERSIONS;
  if (!Array.isArray(versions) || versions.length === 0) {
    throw new McpClientError('option protocolVersions must be a non-empty array of modern protocol versions');
  }
  const newestLegacy = LEGACY_VERSIONS[0] as string;
  for (const version of versions) {
    if (typeof version !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
      throw new McpClientError(`option protocolVersions holds ${JSON.stringify(version)}, which is not a protocol version`);
    }
    if (version <= newestLegacy) {
      throw new McpUnsupportedVersionError(
        MODERN_VERSIONS,
        [version],
        `protocolVersions names ${JSON.stringify(version)}, a handshake-era version; ` +
          'legacy servers are reached by the handshake without naming them',
      );
    }
  }
  return [...versions];
}

/** The client's options, checked and with their defaults filled in. */
export interface Settings {
  versions: readonly string[];
  era: 'modern' | 'legacy' | undefined;
  clientInfo: { name: string; version: string };
  probeTimeoutMs: number;
  requestTimeoutMs: number;
  maxInputRounds: number;
  hooks: InputHooks;
  /** The `roots` option, resolved; `undefined` without it. */
  roots: RootsOption | undefined;
  declaredCapabilities: ClientCapabilities;
  logLevel: LoggingLevel | undefined;
  onLog: ((message: LogMessage) => void) | undefined;
  onProgress: ((progress: ToolProgress) => void) | undefined;
  toolConcurrency: number;
  trustAnnotations: boolean;
  maxPendingRequests: number;
  listLimits: ListLimits;
  tasks: boolean;
  validateStructuredContent: boolean;
  /** The `tracing` option; `undefined` when it is off. */
  tracing: TracingSettings | undefined;
  warn: (message: string) => void;
  /** Where a `Registry` publishes this client (set through `ASKED_UNDER`), told to every hook as `server.prefix`. */
  asker: { prefix: string | undefined };
}

/**
 * Checks `new McpClient(...)`'s options and fills in the defaults.
 *
 * @throws McpClientError for an unknown option, a transport option next to a ready transport, or a bad value.
 * @throws McpUnsupportedVersionError when `protocolVersions` names a legacy version.
 */
export function resolveOptions(options: McpClientOptions, transportKeys: readonly string[], version: string): Settings {
  for (const key of Object.keys(options)) {
    if (key !== 'onWarn' && transportKeys.includes(key)) {
      throw new McpClientError(`option ${key} configures a transport, but a ready transport was given`);
    }
  }
  refuseUnknown(options, [...CLIENT_OPTION_KEYS, 'transport']);
  if (!options.transport) throw new McpClientError('option transport is required (or use McpClient.connectStdio)');
  for (const name of FUNCTION_OPTIONS) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw new McpClientError(`option ${name} must be a function`);
  }
  if (options.logLevel !== undefined && !LOGGING_LEVELS.includes(options.logLevel)) {
    throw new McpClientError(`option logLevel must be one of ${LOGGING_LEVELS.join(', ')}; got ${JSON.stringify(options.logLevel)}`);
  }
  if (options.era !== undefined && options.era !== 'modern' && options.era !== 'legacy') {
    throw new McpClientError(`option era must be 'modern' or 'legacy'; got ${JSON.stringify(options.era)}`);
  }
  if (options.tasks !== undefined && typeof options.tasks !== 'boolean') throw new McpClientError('option tasks must be a boolean');
  if (options.trustAnnotations !== undefined && typeof options.trustAnnotations !== 'boolean') throw new McpClientError('option trustAnnotations must be a boolean');
  if (options.validateStructuredContent !== undefined && typeof options.validateStructuredContent !== 'boolean') {
    throw new McpClientError('option validateStructuredContent must be a boolean');
  }
  const roots = options.roots === undefined ? undefined : new RootsOption(options.roots, options.onListRoots);
  const onListRoots = roots?.onListRoots ?? options.onListRoots;
  const hooks: InputHooks = { onElicit: options.onElicit, onElicitUrl: options.onElicitUrl, onSample: options.onSample, onListRoots };
  if (options.sampleWithTools !== undefined && typeof options.sampleWithTools !== 'boolean') throw new McpClientError('option sampleWithTools must be a boolean');
  // Tools are something to sample with: declaring them with no hook to sample would promise what nothing answers.
  if (options.sampleWithTools === true && options.onSample === undefined) throw new McpClientError('option sampleWithTools needs onSample, which answers the sampling requests');
  const declared = withExtensions(
    options.clientCapabilities ?? withRootsListChanged(capabilitiesOf(hooks, options.sampleWithTools === true)),
    checkExtensions(options.extensions),
  );
  return {
    versions: checkVersions(options.protocolVersions),
    era: options.era,
    clientInfo: { name: options.clientName ?? 'rxmcp', version: options.clientVersion ?? version },
    probeTimeoutMs: checkDuration('probeTimeoutMs', options.probeTimeoutMs, 5000),
    requestTimeoutMs: checkDuration('requestTimeoutMs', options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS),
    maxInputRounds: checkCount('maxInputRounds', options.maxInputRounds, 8),
    hooks,
    roots,
    declaredCapabilities: options.tasks ? withTasks(declared, hooks) : declared,
    logLevel: options.logLevel,
    onLog: options.onLog,
    onProgress: options.onProgress,
    toolConcurrency: Math.max(1, checkCount('toolConcurrency', options.toolConcurrency, 4)),
    trustAnnotations: options.trustAnnotations === true,
    maxPendingRequests: Math.max(1, checkCount('maxPendingRequests', options.maxPendingRequests, 10000)),
    listLimits: {
      maxListPages: Math.max(1, checkCount('maxListPages', options.maxListPages, DEFAULT_LIST_LIMITS.maxListPages)),
      maxListItems: checkCount('maxListItems', options.maxListItems, DEFAULT_LIST_LIMITS.maxListItems),
    },
    tasks: options.tasks === true,
    validateStructuredContent: options.validateStructuredContent !== false,
    tracing: checkTracing(options.tracing),
    warn: warnHook(options.onWarn),
    asker: { prefix: undefined },
  };
}

// `{vendor-prefix}/{extension-name}`, the prefix as a `_meta` key's (dot-separated labels).
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);

/**
 * Validates the `extensions` option and copies it, so that the caller's
 * objects changing later cannot change what was declared.
 */
function checkExtensions(extensions: unknown): Record<string, Record<string, unknown>> | undefined {
  if (extensions === undefined) return undefined;
  if (!isObject(extensions)) throw new McpClientError('option extensions must be an object of extension settings, keyed by extension identifier');
  const copy: Record<string, Record<string, unknown>> = {};
  for (const [id, settings] of Object.entries(extensions)) {
    if (!EXTENSION_ID.test(id)) {
      throw new McpClientError(`option extensions: ${quote(id)} is not an extension identifier ({vendor-prefix}/{extension-name})`);
    }
    if (!isObject(settings)) throw new McpClientError(`option extensions: the settings of ${quote(id)} must be an object`);
    let text: string | undefined;
    try {
      text = JSON.stringify(settings);
    } catch (error) {
      throw new McpClientError(`option extensions: the settings of ${quote(id)} are not JSON data (${messageOf(error)})`);
    }
    // JSON.parse keeps a "__proto__" key as an own member, never a prototype.
    copy[id] = JSON.parse(text as string) as Record<string, unknown>;
  }
  return copy;
}

function withExtensions(capabilities: ClientCapabilities, extensions: Record<string, Record<string, unknown>> | undefined): ClientCapabilities {
  return extensions === undefined ? capabilities : { ...capabilities, extensions: { ...capabilities.extensions, ...extensions } };
}

// A client that answers roots can say when they change (notifyRootsChanged,
// or a new list from the `roots` Observable): 2025-11-25 servers such as
// server-filesystem read roots again only when told. A 2026-07-28 server
// asks for roots in every request's input round and ignores the flag.
function withRootsListChanged(capabilities: ClientCapabilities): ClientCapabilities {
  return capabilities.roots === undefined ? capabilities : { ...capabilities, roots: { ...capabilities.roots, listChanged: true } };
}

// Each era reads its own key and ignores the other's. The 2025-11-25 `tasks`
// names the questions a server may make tasks of: those a hook answers
// (client-side tasks, see client-side-tasks.ts); empty without such hooks.
function withTasks(capabilities: ClientCapabilities, hooks: InputHooks): ClientCapabilities {
  return {
    ...capabilities,
    tasks: capabilities.tasks ?? clientTasksCapability(hooks),
    extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} },
  };
}

/** Splits connect options into the client's and the transport's; `onWarn` goes to both. */
export function splitOptions(options: object, transportKeys: readonly string[]): [ClientOptions, Record<string, unknown>] {
  refuseUnknown(options, [...CLIENT_OPTION_KEYS, ...transportKeys]);
  const client: Record<string, unknown> = {};
  const transport: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'onWarn') client[key] = transport[key] = value;
    else if (transportKeys.includes(key)) transport[key] = value;
    else client[key] = value;
  }
  return [client as ClientOptions, transport];
}
