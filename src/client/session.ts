import { catchError, defer, map, mergeMap, type Observable, of, raceWith, take, tap, throwError } from 'rxjs';
import { McpProtocolError, McpUnsupportedVersionError } from '../errors/protocol-errors.js';
import { McpTimeoutError } from '../errors/call-errors.js';
import { McpHttpError } from '../errors/transport-errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/jsonrpc.js';
import { buildNotification, buildRequest, type Stamp } from '../protocol/request.js';
import { iconWarning, keepSafeIcons } from '../protocol/icons.js';
import { discoverResultSchema, implementationSchema, initializeResultSchema, unsupportedVersionData } from '../protocol/schemas.js';
import { checkResult } from '../protocol/shape.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerDescription } from '../protocol/types.js';
import { ErrorCode, LEGACY_VERSIONS } from '../protocol/versions.js';
import type { SendOptions } from './correlator.js';
import { messageOf } from '../util/values.js';

/** What a connection settled on: the server's description and the stamp for every request. */
export interface Session {
  description: ServerDescription;
  /** Replaced (never mutated) when `setLogLevel` changes the level a modern request carries. */
  stamp: Stamp;
  /**
   * True when the probe learnt the era but not the capabilities (a modern
   * server that answered `server/discover` with a header error): calls are
   * then not gated on capabilities, since none were said either way.
   */
  capabilitiesUnknown?: true;
}

/** What the probe needs from the client. */
export interface ProbeContext {
  /** Modern versions this client speaks, best first. */
  versions: readonly string[];
  /** The era the caller knows the server speaks: skip the probe (legacy) or never fall back (modern). */
  era: 'modern' | 'legacy' | undefined;
  clientInfo: Implementation;
  clientCapabilities: ClientCapabilities;
  logLevel: LoggingLevel | undefined;
  probeTimeoutMs: number;
  /** Emits once `ms` have passed on the client's clock for call budgets, which stands still while a person signs in. */
  after(ms: number): Observable<unknown>;
  /** Budget for the legacy `initialize` (0 = none). */
  handshakeTimeoutMs: number;
  request(method: string, build: (id: RequestId) => JsonRpcRequest, options?: SendOptions): Observable<Record<string, unknown>>;
  notify(message: JsonRpcNotification): void;
  warn(message: string): void;
}

type Verdict = { era: 'modern'; session: Session } | { era: 'legacy' } | { era: 'retry'; version: string };

const LEGACY: Verdict = { era: 'legacy' };
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * Works out which era a server speaks, as the seed's "The probe" describes:
 * `server/discover` under its own short budget; a DiscoverResult naming one of
 * our versions means modern, at the first version *we* prefer; `-32022` means
 * modern at another version (or, once, at the best common one again when it
 * lists the version it refused), or the handshake if it names only legacy ones;
 * `-32020`/`-32021` mean modern without details; anything else the server
 * answers (or its silence) means legacy, and the `initialize` handshake follows.
 * With `era` known, the handshake comes first (legacy) or is never tried (modern).
 *
 * A dead wire, a closed connection or a cancelled caller is raised, never read
 * as "legacy".
 */
export function probe(context: ProbeContext): Observable<Session> {
  const sent: string[] = [];
  const attempt = (version: string): Observable<Session> => {
    sent.push(version);
    return discover(context, version, sent).pipe(
      mergeMap((verdict) => {
        if (verdict.era === 'modern') return of(verdict.session);
        if (verdict.era === 'retry') return attempt(verdict.version);
        if (context.era === 'modern') {
          return throwError(
            () => new McpUnsupportedVersionError([], context.versions, 'the server did not answer as a modern one, and option era says it is'),
          );
        }
        return handshake(context);
      }),
    );
  };
  const first = context.versions[0];
  return first === undefined || context.era === 'legacy' ? handshake(context) : defer(() => attempt(first));
}

function modernStamp(context: ProbeContext, protocolVersion: string): Stamp {
  const { clientInfo, clientCapabilities, logLevel } = context;
  return { era: 'modern', protocolVersion, clientInfo, clientCapabilities, ...(logLevel ? { logLevel } : {}) };
}

function discover(context: ProbeContext, version: string, sent: readonly string[]): Observable<Verdict> {
  const stamp = modernStamp(context, version);
  return context.request('server/discover', (id) => buildRequest(id, 'server/discover', undefined, stamp)).pipe(
    // Silence means legacy; time spent signing in is not silence.
    raceWith(context.after(context.probeTimeoutMs).pipe(map(() => undefined))),
    take(1),
    map((result): Verdict => (result === undefined ? LEGACY : fromDiscoverResult(context, result))),
    catchError((error: unknown) => {
      // Over HTTP, a 4xx without a modern JSON-RPC error is a legacy server's answer.
      if (error instanceof McpHttpError && error.status >= 400 && error.status < 500) return of(LEGACY);
      if (!(error instanceof McpProtocolError)) return throwError(() => error);
      return fromError(context, error, version, sent);
    }),
  );
}

function fromDiscoverResult(context: ProbeContext, result: Record<string, unknown>): Verdict {
  if (discoverResultSchema(result) !== undefined) return LEGACY;
  const { supportedVersions, capabilities, instructions } = result as { supportedVersions: string[]; capabilities: Record<string, unknown>; instructions?: string };
  const chosen = context.versions.find((version) => supportedVersions.includes(version));
  if (chosen === undefined) return LEGACY;
  const meta = result._meta as Record<string, unknown> | undefined;
  // Checked like the handshake's: a malformed one is as good as none.
  const info = meta?.[SERVER_INFO];
  const serverInfo = implementationSchema(info) === undefined ? (info as Implementation) : undefined;
  if (serverInfo) checkServerIcons(context, serverInfo);
  return {
    era: 'modern',
    session: {
      stamp: modernStamp(context, chosen),
      description: { era: 'modern', protocolVersion: chosen, supportedVersions, serverInfo, capabilities, instructions },
    },
  };
}

function fromError(
  context: ProbeContext,
  error: McpProtocolError,
  version: string,
  sent: readonly string[],
): Observable<Verdict> {
  if (error.code === ErrorCode.UnsupportedProtocolVersion) {
    const { supported } = unsupportedVersionData(error.data);
    const common = context.versions.filter((candidate) => supported.includes(candidate));
    // A server may refuse the very version it lists (a proxy in between, a
    // server that changed its mind): SEP-2575 still says to retry at a version
    // both sides speak. Once per probe, so a server that keeps refusing ends it.
    const repeated = sent.length > new Set(sent).size;
    const next = common.find((candidate) => !sent.includes(candidate)) ?? (supported.includes(version) && !repeated ? common[0] : undefined);
    if (next !== undefined) return of({ era: 'retry', version: next });
    if (supported.some((candidate) => LEGACY_VERSIONS.includes(candidate))) return of(LEGACY);
    return throwError(() => new McpUnsupportedVersionError(supported, context.versions));
  }
  if (error.code === ErrorCode.HeaderMismatch || error.code === ErrorCode.MissingRequiredClientCapability) {
    // Certainly modern, but the server said nothing about itself; the catalogue calls fill that in.
    return of({
      era: 'modern',
      session: {
        capabilitiesUnknown: true,
        stamp: modernStamp(context, version),
        description: {
          era: 'modern',
          protocolVersion: version,
          supportedVersions: [],
          serverInfo: undefined,
          capabilities: {},
          instructions: undefined,
        },
      },
    });
  }
  return of(LEGACY);
}

function handshake(context: ProbeContext): Observable<Session> {
  const requested = LEGACY_VERSIONS[0] as string;
  const params = { protocolVersion: requested, capabilities: context.clientCapabilities, clientInfo: context.clientInfo };
  let answer = context.request('initialize', (id) => buildRequest(id, 'initialize', params, undefined), { cancellable: false });
  if (context.handshakeTimeoutMs > 0) {
    const budget = context.handshakeTimeoutMs;
    const expired = context.after(budget).pipe(mergeMap(() => throwError(() => new McpTimeoutError('initialize', budget))));
    answer = answer.pipe(raceWith(expired), take(1));
  }
  return answer.pipe(
    map((result): Session => {
      const { protocolVersion, capabilities, serverInfo, instructions } = checkResult<{
        protocolVersion: string;
        capabilities: Record<string, unknown>;
        serverInfo: Implementation;
        instructions?: string;
      }>('initialize', initializeResultSchema, result);
      checkServerIcons(context, serverInfo);
      if (!LEGACY_VERSIONS.includes(protocolVersion)) {
        throw new McpUnsupportedVersionError(
          [protocolVersion],
          [requested],
          `the server answered initialize with protocol version ${JSON.stringify(protocolVersion)}, which this client does not speak`,
        );
      }
      return {
        stamp: { era: 'legacy', protocolVersion, clientInfo: context.clientInfo, clientCapabilities: context.clientCapabilities },
        description: { era: 'legacy', protocolVersion, supportedVersions: [], serverInfo, capabilities, instructions },
      };
    }),
    tap(() => context.notify(buildNotification('notifications/initialized'))),
    mergeMap((session) => setLevel(context, session)),
  );
}

// A legacy server keeps the log level per session: ask for it once, right
// after the handshake, if the server offers logging at all.
function setLevel(context: ProbeContext, session: Session): Observable<Session> {
  const level = context.logLevel;
  if (!level || session.description.capabilities.logging === undefined) return of(session);
  return context.request('logging/setLevel', (id) => buildRequest(id, 'logging/setLevel', { level }, session.stamp)).pipe(
    map(() => session),
    catchError((error: unknown) => {
      context.warn(`logging/setLevel ${level} failed: ${messageOf(error)}`);
      return of(session);
    }),
  );
}

// The server's own icons are checked as a list's are (see protocol/icons.ts).
function checkServerIcons(context: ProbeContext, serverInfo: Implementation): void {
  const dropped = iconWarning('serverInfo', keepSafeIcons([serverInfo], () => 'the server'));
  if (dropped) context.warn(dropped);
}
