// The page of the browser sign-in specs, bundled by sign-in-harness.ts:
// rxmcp and rxmcp/browser from the sources, driven by the spec through
// `window.signInPage`. Its path says which sign-in it uses: /popup (with
// /popup/signed-in as the redirect page), or /redirect (its own redirect page).
import { firstValueFrom } from 'rxjs';
import { McpAuthError, McpClient } from '../../src/index.js';
import type { AuthorizeRequest, StoredTokens } from '../../src/index.js';
import { BrowserTokenStore, finishSignIn, popupSignIn, redirectSignIn } from '../../src/browser/index.js';

/** What the page offers the spec. */
export interface SignInPage {
  /** Every `auth$` state so far: its name, and for `failed` the error's message. */
  states: string[];
  /** The tools the last call listed. */
  tools?: string[];
  /** The error the last call failed with. */
  error?: { name: string; step?: string; message: string };
  /** The authorization URL of the sign-in that waits, if any. */
  waitingUrl?: string;
  /** Whether `popupSignIn` says a sign-in waits. */
  waiting(): boolean;
  /** Lists the server's tools, filling `tools` or `error`. */
  call(): void;
  /** A BrowserTokenStore's `get`, for the spec to read what it keeps. */
  readTokens(key: string, storage?: 'session' | 'local'): unknown;
  /** A BrowserTokenStore's `set`, for the spec to see how it keeps what it is handed. */
  writeTokens(key: string, tokens: StoredTokens, storage?: 'session' | 'local'): void;
  /** The PKCE verifiers this tab's sign-ins were handed, kept across the redirect. */
  verifiers(): string[];
}

declare global {
  interface Window {
    signInPage: SignInPage;
  }
}

const mcpUrl = document.querySelector('meta[name="mcp-url"]')?.getAttribute('content') ?? '';
const clientId = document.querySelector('meta[name="client-id"]')?.getAttribute('content') ?? '';
const VERIFIERS = 'spec:verifiers';

function remember(request: AuthorizeRequest): void {
  const verifiers = JSON.parse(sessionStorage.getItem(VERIFIERS) ?? '[]') as string[];
  sessionStorage.setItem(VERIFIERS, JSON.stringify([...verifiers, request.pending.codeVerifier]));
}

function start(): void {
  if (location.pathname === '/popup/signed-in') {
    if (!finishSignIn()) document.body.textContent = 'No window opened this page.';
    return;
  }
  const popup = location.pathname === '/popup' ? popupSignIn({ redirectUrl: '/popup/signed-in', closedPollMs: 200 }) : undefined;
  const redirect = location.pathname === '/redirect' ? redirectSignIn({ redirectUrl: '/redirect' }) : undefined;
  const signIn = popup ?? redirect;
  if (!signIn) return;
  const mcp = McpClient.connectHttp({
    url: mcpUrl,
    clientName: 'rxmcp browser sign-in spec',
    auth: {
      clientId,
      redirectUrl: signIn.redirectUrl,
      tokenStore: new BrowserTokenStore(),
      authorize: (request) => {
        remember(request);
        return popup ? popup.authorize(request) : redirect!.authorize(request);
      },
    },
  });
  const button = document.getElementById('sign-in') as HTMLButtonElement;
  const page: SignInPage = {
    states: [],
    waiting: () => popup?.waiting ?? false,
    call() {
      page.tools = undefined;
      page.error = undefined;
      firstValueFrom(mcp.listTools()).then(
        (tools) => (page.tools = tools.map((tool) => tool.name)),
        (error: Error) => (page.error = { name: error.name, ...(error instanceof McpAuthError ? { step: error.step } : {}), message: error.message }),
      );
    },
    readTokens: (key, storage = 'session') => new BrowserTokenStore({ storage }).get(key),
    writeTokens: (key, tokens, storage = 'session') => new BrowserTokenStore({ storage }).set(key, tokens),
    verifiers: () => JSON.parse(sessionStorage.getItem(VERIFIERS) ?? '[]') as string[],
  };
  mcp.auth$.subscribe((state) => {
    page.states.push(state.state === 'failed' ? `failed: ${state.error.message}` : state.state);
    page.waitingUrl = state.state === 'signing-in' ? state.url.href : undefined;
    button.hidden = state.state !== 'signing-in';
  });
  // The click itself opens the window: no await before open().
  button.addEventListener('click', () => popup?.open());
  document.getElementById('call')?.addEventListener('click', () => page.call());
  window.signInPage = page;
  if (redirect?.returning) page.call();
}

start();
