import { Subscription } from 'rxjs';
import type { AuthOptions, AuthState, McpClient } from 'rxmcp';
import { BrowserTokenStore, type PopupSignIn, popupSignIn } from 'rxmcp/browser';
import type { ConnectSettings } from './connect-form.js';
import { byId, element } from './element.js';
import { showViewSection } from './view-panel.js';

/** The page's client at the authorization server of the MCP server at `url`, as `POST /api/register` made it. */
interface Registered {
  url: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
}

/** Sign-in from the page, bound to the #sign-in panel (see `bindSignIn`). */
export interface SignIn {
  /** The `auth` of a connection to `url`, once the page has a client for it; each call makes a new popup sign-in. */
  authFor(url: string): AuthOptions | undefined;
  /** Shows how `mcp`'s sign-in stands, until unsubscribed. */
  watch(mcp: McpClient, settings: ConnectSettings): Subscription;
  /** The server wants a sign-in: registers the page as a client, then connects again with it. */
  offer(settings: ConnectSettings): void;
  /** Whether a connection's failure is the sign-in's, which this panel tells, not the connect form. */
  tells(error: Error): boolean;
}

const REDIRECT_PATH = '/signed-in';

/**
 * Sign-in from the page, for a server that answers 401 with a challenge.
 * The inspector's server registers the page as a client at the server's
 * authorization server (`offer`); the page connects again with `auth`, and
 * when the client asks a person to sign in, the panel's Sign in button opens
 * the sign-in window (a popup, from the click itself, as browsers require).
 * The window ends at the inspector's `/signed-in`, which hands the answer
 * back. A closed window or a refused consent is said on the panel, and a new
 * sign-in is made ready at once, so that "Sign in again" is one click.
 * Tokens are kept in this tab's sessionStorage.
 *
 * @param reconnect connects to `settings` again, replacing the connection
 * @param headers the page's own headers for the inspector's server (its token)
 */
export function bindSignIn(reconnect: (settings: ConnectSettings) => void, headers: Record<string, string>): SignIn {
  const box = byId('sign-in');
  const status = element('p');
  status.id = 'sign-in-status';
  status.setAttribute('role', 'status');
  const button = element('button', 'Sign in');
  button.id = 'sign-in-button';
  button.type = 'button';
  box.replaceChildren(element('h2', 'Sign-in'), status, button);
  const tokenStore = new BrowserTokenStore({ namespace: 'rxmcp-inspect' });
  let registered: Registered | undefined;
  let signIn: PopupSignIn | undefined;
  // Why the last sign-in did not finish, told until one does.
  let problem: string | undefined;
  // The connection shown now: a sign-in connects again only if the person has not gone elsewhere meanwhile.
  let latest: ConnectSettings | undefined;
  const again = (settings: ConnectSettings): void => {
    if (latest === settings) reconnect(settings);
  };

  const show = (text: string, action?: { label: string; run: () => void }): void => {
    status.textContent = text;
    button.hidden = action === undefined;
    if (action) {
      button.textContent = action.label;
      // The window must be opened by the click itself, before any await.
      button.onclick = action.run;
    }
    box.hidden = false;
    showViewSection();
  };
  const hide = (): void => {
    box.hidden = true;
    showViewSection();
  };

  // The sign-in window keeps a handle on this page (it hands the answer back
  // through it), so the authorization server's page could send this tab
  // elsewhere, to a look-alike asking for the token. While a sign-in is
  // under way, leaving the page asks the person first.
  let guarding = false;
  window.addEventListener('beforeunload', (event) => {
    if (guarding) event.preventDefault();
  });
  const api: SignIn = {
    authFor(url) {
      if (registered?.url !== url) return undefined;
      // One popup sign-in per connection: a replaced connection's waiting sign-in goes with it.
      signIn = popupSignIn({ redirectUrl: REDIRECT_PATH, timeoutMs: 0 });
      const { issuer, clientId, clientSecret } = registered;
      return { issuer, clientId, ...(clientSecret === undefined ? {} : { clientSecret }), redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore };
    },

    watch(mcp, settings) {
      latest = settings;
      if (registered?.url !== settings.url) {
        hide();
        return new Subscription();
      }
      const issuer = new URL(registered.issuer).host;
      const open = (): void => {
        guarding = true;
        void signIn?.open();
      };
      if (problem !== undefined) show(problem, { label: 'Sign in again', run: open });
      return mcp.auth$.subscribe((state: AuthState) => {
        switch (state.state) {
          case 'signing-in':
            show(problem ?? `Sign-in needed: ${settings.url} wants you to sign in, at ${issuer}.`, { label: problem === undefined ? 'Sign in' : 'Sign in again', run: open });
            break;
          case 'signed-in':
            guarding = false;
            problem = undefined;
            show(`Signed in at ${issuer}.`);
            break;
          case 'refreshing':
            show(`Renewing the sign-in at ${issuer}…`);
            break;
          case 'failed': {
            guarding = false;
            problem = `Not signed in: ${state.error.message}`;
            // The person's part failed (the window closed, consent refused): a new sign-in waits for the next click.
            const theirs = (state.error as { step?: unknown }).step === 'authorize';
            show(problem, { label: 'Sign in again', run: theirs ? open : () => again(settings) });
            if (theirs) setTimeout(() => again(settings), 0);
            break;
          }
        }
      });
    },

    offer(settings) {
      if (registered?.url === settings.url) return;
      show(`Sign-in needed: registering this page as a client of ${settings.url}'s authorization server…`);
      void fetch('/api/register', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: settings.url }) })
        .then(async (response) => {
          const answer = (await response.json()) as { issuer?: unknown; clientId?: unknown; clientSecret?: unknown; error?: unknown };
          if (!response.ok || typeof answer.issuer !== 'string' || typeof answer.clientId !== 'string') throw new Error(typeof answer.error === 'string' ? answer.error : `the inspector answered ${response.status}`);
          registered = { url: settings.url, issuer: answer.issuer, clientId: answer.clientId, ...(typeof answer.clientSecret === 'string' ? { clientSecret: answer.clientSecret } : {}) };
          problem = undefined;
          again(settings);
        })
        .catch((error: Error) => {
          if (latest === settings) show(`Sign-in needed, but the page could not register as a client: ${error.message}`, { label: 'Try again', run: () => api.offer(settings) });
        });
    },

    tells(error) {
      return registered !== undefined && [error, (error as { cause?: unknown }).cause].some((one) => (one as { name?: unknown } | undefined)?.name === 'McpAuthError');
    },
  };
  return api;
}
