// The page of `rxmcp inspect`: rxmcp bound to the DOM. Bundled for browsers
// by scripts/build.mjs into dist/inspect/page.js, and served with
// index.html by the inspector's server (src/cli/inspect/inspect-server.ts).
import type { Subscription } from 'rxjs';
import { HttpTransport, InputBroker, McpClient } from 'rxmcp';
import { appsExtension } from 'rxmcp/apps';
import { Activity } from './activity-panel.js';
import { bindAnswers } from './answers-panel.js';
import { bindConnectForm, type ConnectSettings } from './connect-form.js';
import { connectionError, type ProbeVerdict } from './connection-error.js';
import { showCatalogue } from './catalogue-panel.js';
import { byId, element } from './element.js';
import { showQuestions } from './question-panel.js';
import { bindSignIn } from './sign-in-panel.js';
import { TrafficTransport } from './traffic-transport.js';

// The run's token, from the printed URL: every request to the inspector's server carries it.
const token = new URLSearchParams(location.search).get('token') ?? '';
const own = { Authorization: `Bearer ${token}` };

/** What `GET /api/target` answers (see InspectTarget in inspect-server.ts). */
type Target = { kind: 'none' } | { kind: 'url'; url: string; transport: ConnectSettings['transport']; headers: Record<string, string> } | { kind: 'gateway'; command: string };

const activity = new Activity();
/** Where a stdio server is reached, behind the inspector's gateway. */
const gatewayUrl = new URL('/mcp', location.href).href;

// The roots and the model the person set up: kept across connections, read as questions come.
const answers = bindAnswers();
// Sign-in from the page, for a server that wants one: it connects again once it has a client there.
const signIn = bindSignIn((settings) => connect(settings), own);

/** One connection and all that hangs on it, dropped as one when the next replaces it. */
let current: { mcp: McpClient; subscriptions: Subscription[]; stopQuestions: () => void } | undefined;

function connect(settings: ConnectSettings): void {
  if (current) {
    current.subscriptions.forEach((subscription) => subscription.unsubscribe());
    current.stopQuestions();
    void current.mcp.close();
  }
  byId('tools').replaceChildren();
  activity.clear();
  byId('call').replaceChildren(element('h2', 'Call'), element('p', 'Choose a tool.'));
  const failure = byId('connection-error');
  failure.hidden = true;
  delete failure.dataset.kind;
  const server = byId('server');
  server.textContent = `connecting to ${settings.url}…`;
  let mcp: McpClient;
  const broker = new InputBroker();
  const auth = signIn.authFor(settings.url);
  try {
    // The transport is the HTTP one, watched: the Requests and Notifications lists show what crosses it.
    // The run's token goes to the inspector's own gateway alone: never shown in the form, where it would be sent on to the next URL typed.
    const headers = settings.url === gatewayUrl ? { ...settings.headers, ...own } : settings.headers;
    const http = new HttpTransport({ url: settings.url, httpTransport: settings.transport, headers, ...(auth ? { auth } : {}) });
    mcp = new McpClient({
      transport: new TrafficTransport(http, (message) => activity.record(message)),
      // The page's own gateway is spoken to in the handshake era: it passes a stdio server's log messages (any time,
      // from the level the page sets) to 2025-11-25 hosts alone, the 2026-07-28 revision having deprecated logging.
      ...(settings.url === gatewayUrl ? { era: 'legacy' as const } : {}),
      clientName: 'rxmcp-inspect',
      onElicit: broker.onElicit,
      onElicitUrl: broker.onElicitUrl,
      onSample: broker.onSample,
      sampleWithTools: true,
      roots: answers.roots$,
      logLevel: activity.logLevel,
      // The page checks results against their outputSchema itself, to show a result that breaks it with the verdict.
      validateStructuredContent: false,
      tasks: true,
      // Declaring MCP Apps is what makes a server that checks for it offer its tools with views.
      extensions: appsExtension,
    });
  } catch (error) {
    showFailure(settings, error as Error);
    return;
  }
  const mine = { mcp, subscriptions: [] as Subscription[], stopQuestions: showQuestions(broker, answers) };
  current = mine;
  // Only the first failure of a connection is told; the listing fails the same way.
  let told = false;
  const fail = (error: Error): void => {
    if (told || current !== mine) return;
    told = true;
    server.textContent = 'not connected';
    if (!signIn.tells(error)) void showFailure(settings, error);
  };
  mine.subscriptions.push(
    mcp.describe().subscribe({
      next: (found) => {
        server.textContent = `${found.serverInfo?.name ?? 'server'} · ${found.era} era · ${found.protocolVersion} · ${found.wire}`;
        if (settings.url === gatewayUrl) void showUpstream(server, () => current === mine);
      },
      error: fail,
    }),
    showCatalogue(mcp, fail),
    activity.bind(mcp),
    signIn.watch(mcp, settings),
  );
}

// The page sees the gateway; the inspector's server asks the stdio server behind it what it is.
async function showUpstream(line: HTMLElement, still: () => boolean): Promise<void> {
  try {
    const response = await fetch('/api/upstream', { headers: own });
    const found = (await response.json()) as { name?: unknown; version?: unknown; era?: unknown; protocolVersion?: unknown };
    if (!response.ok || !still()) return;
    const named = [found.name, found.version].filter((part) => typeof part === 'string').join(' ') || 'server';
    line.textContent = `${named} · ${String(found.era)} era · ${String(found.protocolVersion)} · stdio, through the inspector's gateway`;
  } catch {
    // The gateway's own line stays.
  }
}

// The browser says little of why a fetch failed; the inspector's server tries the URL and says more.
async function showFailure(settings: ConnectSettings, error: Error): Promise<void> {
  const failure = byId('connection-error');
  let verdict: ProbeVerdict | undefined;
  try {
    const response = await fetch('/api/probe', { method: 'POST', headers: { ...own, 'Content-Type': 'application/json' }, body: JSON.stringify(settings) });
    if (response.ok) verdict = (await response.json()) as ProbeVerdict;
  } catch {
    // No verdict: the client's own message is all there is to show.
  }
  if (verdict?.kind === 'sign-in') signIn.offer(settings);
  const told = connectionError(settings.url, verdict, error);
  failure.dataset.kind = told.kind;
  failure.textContent = told.text;
  failure.hidden = false;
}

const form = bindConnectForm(connect);

async function start(): Promise<void> {
  const response = await fetch('/api/target', { headers: own });
  const target = (await response.json()) as Target;
  if (target.kind === 'none') return;
  // A stdio server sits behind the gateway at the page's own /mcp; connect() adds the token it wants there, and nowhere else.
  const settings: ConnectSettings =
    target.kind === 'url'
      ? { url: target.url, transport: target.transport, headers: target.headers }
      : { url: gatewayUrl, transport: 'streamable-http', headers: {} };
  form.fill(settings);
  connect(settings);
  if (target.kind === 'gateway') activity.line(`the gateway runs: ${target.command}`);
}

void start();
