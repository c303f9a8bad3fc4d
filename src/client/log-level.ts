import { map, type Observable, of, throwError } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { JsonRpcRequest, RequestId } from '../protocol/jsonrpc.js';
import { buildRequest } from '../protocol/request.js';
import type { LoggingLevel } from '../protocol/types.js';
import { capabilityRefusal } from './capability-gate.js';
import type { Session } from './session.js';

// Every level, typed from the union: a level added to LoggingLevel and not here is a compile error.
const LEVELS: Record<LoggingLevel, true> = { debug: true, info: true, notice: true, warning: true, error: true, critical: true, alert: true, emergency: true };

/**
 * Checks a log level given at run time (it may come from a config file or a
 * person, not only from typed code).
 *
 * @throws McpClientError for anything but one of the eight RFC 5424 level names.
 */
export function checkLogLevel(level: unknown): asserts level is LoggingLevel {
  if (typeof level !== 'string' || !Object.hasOwn(LEVELS, level)) {
    throw new McpClientError(`log level must be one of ${Object.keys(LEVELS).join(', ')}; got ${JSON.stringify(level)?.slice(0, 80)}`);
  }
}

/**
 * The log level in force for one client, which outlives its sessions: the
 * `logLevel` option at first, then whatever `setLogLevel` last set. Each
 * probe reads it, so a restarted legacy server is asked for it again after
 * its handshake, and a modern session's requests carry it from the start.
 */
export class LogLevel {
  constructor(public current: LoggingLevel | undefined) {}

  /**
   * `McpClient.setLogLevel` once the session is known. Legacy: one
   * `logging/setLevel` request (refused before it is sent when the server
   * did not declare `logging`), and the level kept once the server took it.
   * Modern: there is nothing to send; the session's stamp is replaced, so
   * every request built from now on carries the level in `_meta`.
   */
  apply(
    session: Session,
    level: LoggingLevel,
    request: (method: string, build: (id: RequestId) => JsonRpcRequest) => Observable<Record<string, unknown>>,
  ): Observable<void> {
    if (session.description.era === 'modern') {
      this.current = level;
      session.stamp = { ...session.stamp, logLevel: level };
      return of(undefined);
    }
    const refused = capabilityRefusal(session, 'logging/setLevel');
    if (refused) return throwError(() => refused);
    return request('logging/setLevel', (id) => buildRequest(id, 'logging/setLevel', { level }, session.stamp)).pipe(
      map(() => {
        this.current = level;
      }),
    );
  }
}
