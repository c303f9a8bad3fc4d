import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Observable, throwError, timeout } from 'rxjs';
import type { AuthorizeRequest } from '../auth/auth-options.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import { checkCount, checkTimerDuration } from '../util/checks.js';
import { refuseUnknown } from '../util/refuse-unknown.js';
import { keysOf } from '../util/option-keys.js';

/** How `loopbackSignIn` listens, and how it sends a person to sign in. */
export interface LoopbackSignInOptions {
  /** The port on 127.0.0.1 to listen on (default 0: any free port, chosen by the system). */
  port?: number;
  /** The path the authorization server redirects to (default `/callback`). */
  path?: string;
  /**
   * Whether to open the system browser at the authorization URL (default
   * true; `xdg-open`, `open` or `rundll32`, run without a shell, failures
   * ignored), or a function that opens it some other way.
   */
  open?: boolean | ((url: URL) => void);
  /** Where the line naming the authorization URL goes (default: stderr). It is printed whether or not a browser opens. */
  print?: (line: string) => void;
  /** How long one sign-in waits for the browser to come back, in milliseconds (default 300000; 0 waits for ever). */
  timeoutMs?: number;
}

/** A running loopback redirect listener, as `loopbackSignIn` answers it. */
export interface LoopbackSignIn {
  /** `http://127.0.0.1:PORT/PATH`: give it as `auth.redirectUrl`. */
  readonly redirectUrl: string;
  /**
   * The `auth.authorize` hook. Each subscription prints the authorization
   * URL, opens a browser, and emits the URL the browser was redirected to
   * (code and state included) when it arrives, then completes.
   * Unsubscribing stops waiting; the listener stays up for the next try.
   *
   * @throws McpAuthError (step `authorize`) through the Observable when the
   *   URL is not http or https, when `timeoutMs` passes, or when `close()` is
   *   called while waiting.
   */
  readonly authorize: (request: Pick<AuthorizeRequest, 'url'>) => Observable<string>;
  /** Stops listening, failing any sign-in still waiting. Safe to call more than once. */
  close(): Promise<void>;
}

const OPTION_KEYS = keysOf<LoopbackSignInOptions>({ port: true, path: true, open: true, print: true, timeoutMs: true });
const TIMEOUT_MS = 300_000;

/** One subscription to `authorize`, waiting for its redirect. */
interface Waiter {
  /** The `state` its authorization URL carries; `null` takes any redirect. */
  readonly state: string | null;
  deliver(url: string): void;
  fail(error: Error): void;
}

/**
 * Listens on 127.0.0.1 for the redirect that ends an OAuth sign-in (RFC 8252
 * loopback redirect), for programs that run where the person signing in sits.
 *
 * It starts listening before answering, because the client needs the
 * redirect URL before it registers or builds an authorization URL. The
 * listener does not keep Node running by itself: only while a sign-in waits.
 * A redirect goes to the waiting sign-in whose authorization URL carries the
 * same `state`; one nobody waits for is turned away (a reloaded page, a late
 * or forged redirect). The browser gets a short page saying it can be closed.
 * Authorization codes are never printed or logged.
 *
 * @param options How to listen and how to send the person to sign in.
 * @returns The redirect URL, the `authorize` hook and `close()`.
 * @throws McpClientError for an invalid option; McpAuthError (step
 *   `callback`) when the port cannot be listened on.
 * @example
 * ```ts
 * import { FileTokenStore, loopbackSignIn } from 'rxmcp/node';
 *
 * const signIn = await loopbackSignIn();
 * const mcp = McpClient.connectHttp({
 *   url: 'https://tools.example.com/mcp',
 *   auth: { redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore: new FileTokenStore() },
 * });
 * try {
 *   console.log(await firstValueFrom(mcp.listTools()));
 * } finally {
 *   await mcp.close();
 *   await signIn.close();
 * }
 * ```
 */
export async function loopbackSignIn(options: LoopbackSignInOptions = {}): Promise<LoopbackSignIn> {
  refuseUnknown(options, OPTION_KEYS);
  const port = checkCount('port', options.port, 0);
  if (port > 65535) throw new McpClientError(`option port must be 65535 or less; got ${port}`);
  const path = options.path ?? '/callback';
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
    throw new McpClientError(`option path must start with / and hold no query, fragment or space; got ${JSON.stringify(path)}`);
  }
  const timeoutMs = checkTimerDuration('timeoutMs', options.timeoutMs, TIMEOUT_MS);
  const open = options.open ?? true;
  const print = options.print ?? ((line: string) => void process.stderr.write(`${line}\n`));

  const waiters = new Set<Waiter>();
  const server = createServer((request, response) => answer(request, response));
  const listening = await listen(server, port);
  const redirectUrl = `http://127.0.0.1:${listening}${path}`;
  let closing: Promise<void> | undefined;

  function answer(request: IncomingMessage, response: ServerResponse): void {
    // Split by hand rather than resolved against a base: a request target such
    // as //elsewhere/callback must not turn the answer into another origin's URL.
    const target = request.url ?? '/';
    const query = target.indexOf('?');
    if ((query < 0 ? target : target.slice(0, query)) !== path) return page(response, 404, 'Not found', 'There is nothing here.');
    const url = new URL(`${redirectUrl}${query < 0 ? '' : target.slice(query)}`);
    if (request.method !== 'GET') return page(response, 405, 'Not allowed', 'The sign-in answer comes as a GET request.');
    if (!url.searchParams.has('code') && !url.searchParams.has('error')) {
      return page(response, 400, 'Not a sign-in answer', 'This address waits for the answer of an authorization server, and this is not one.');
    }
    const state = url.searchParams.get('state');
    const waiter = [...waiters].find((candidate) => candidate.state === null || candidate.state === state);
    if (waiter === undefined) {
      return page(response, 410, 'Sign-in is over', 'No sign-in is waiting for this answer: it is over, or it was not started here. You can close this tab.');
    }
    if (url.searchParams.has('error')) page(response, 200, 'Sign-in not finished', 'The authorization server did not sign you in. You can close this tab and return to the application.');
    else page(response, 200, 'Signed in', 'The sign-in has reached the application. You can close this tab.');
    waiter.deliver(url.href);
  }

  function wait(request: Pick<AuthorizeRequest, 'url'>): Observable<string> {
    return new Observable<string>((subscriber) => {
      if (closing !== undefined) {
        subscriber.error(new McpAuthError('authorize', `the loopback listener at ${redirectUrl} is closed`));
        return;
      }
      const target = new URL(request.url);
      if (target.protocol !== 'https:' && target.protocol !== 'http:') {
        subscriber.error(new McpAuthError('authorize', `refusing to send a person to a ${JSON.stringify(target.protocol)} URL`));
        return;
      }
      const waiter: Waiter = {
        state: target.searchParams.get('state'),
        deliver: (url) => {
          subscriber.next(url);
          subscriber.complete();
        },
        fail: (error) => subscriber.error(error),
      };
      // Registered before the browser opens, so that no redirect can arrive unheard.
      waiters.add(waiter);
      server.ref();
      print(open === false ? `To sign in, open ${target.href}` : `Opening a browser to sign in. If none opens, visit ${target.href}`);
      if (open === true) openBrowser(target.href);
      else if (open !== false) callQuietly(open, target);
      return () => {
        waiters.delete(waiter);
        if (waiters.size === 0) server.unref();
      };
    });
  }

  return {
    redirectUrl,
    authorize: (request) =>
      timeoutMs === 0
        ? wait(request)
        : wait(request).pipe(
            timeout({
              first: timeoutMs,
              with: () => throwError(() => new McpAuthError('authorize', `no browser came back to ${redirectUrl} within ${timeoutMs} ms`)),
            }),
          ),
    close: () => {
      if (closing === undefined) {
        const waiting = [...waiters];
        closing = new Promise<void>((resolve) => {
          server.close(() => resolve());
          // The browser's kept-alive connections would otherwise hold close() open.
          server.closeAllConnections();
        });
        for (const waiter of waiting) waiter.fail(new McpAuthError('authorize', `the loopback listener at ${redirectUrl} was closed while waiting for the browser`));
      }
      return closing;
    },
  };
}

/** Starts `server` on 127.0.0.1 and answers the port it got, not holding Node open. */
function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      const code = (error as { code?: unknown }).code;
      reject(new McpAuthError('callback', `cannot listen on 127.0.0.1:${port}: ${typeof code === 'string' ? code : error.message}`, { cause: error }));
    });
    server.listen(port, '127.0.0.1', () => {
      server.unref();
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/** Answers the browser with a short HTML page. */
function page(response: ServerResponse, status: number, title: string, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The address bar holds the authorization code: nothing on the page may send it anywhere.
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'",
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`);
}

/**
 * Opens the system browser at `url`, without a shell (the URL's `&`s stay
 * part of the URL). The URL is printed anyway, so a missing opener (a server
 * with no desktop) is no failure. Also how the CLI opens a URL elicitation's
 * page, once the person has said yes.
 */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Same as above: the printed URL is the fallback.
  }
}

/** Calls the caller's opener; like the system one, its failure leaves the printed URL. */
function callQuietly(open: (url: URL) => void, url: URL): void {
  try {
    const result: unknown = open(new URL(url.href));
    if (result instanceof Promise) result.catch(() => undefined);
  } catch {
    // The printed URL is the fallback.
  }
}
