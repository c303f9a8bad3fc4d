// The page's script: rxmcp bound to the DOM. Bundled for the browser from the
// package's root and rxmcp/apps entries by demos/web/serve.mjs.
import { from, type Subscription, switchMap } from 'rxjs';
import { InputBroker, McpClient, type PendingQuestion, type PermissionAnswer, Pins, Policy, type PolicyQuestion, type Task, type Tool, toolVisibility } from 'rxmcp';
import { appResourceUri, appsExtension } from 'rxmcp/apps';
import { BrowserTokenStore, popupSignIn } from 'rxmcp/browser';
import { driftDialog, StoredPins } from './drift-dialog.js';
import { bindThemeButton } from './host-context.js';
import { openPage, urlQuestionView } from './url-question.js';
import { toolButton } from './tool-entry.js';
import { showView } from './view-panel.js';

const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;

// What the demo's server wrote into the page: where the sandbox proxy is
// served (another port, so another origin) and which app servers it relays.
const demo = JSON.parse(document.querySelector('meta[name=rxmcp-demo]')?.getAttribute('content') ?? '{}') as {
  sandboxPort?: number;
  sandboxPath?: string;
  apps?: string[];
  signIn?: { url: string; clientId: string };
};
const apps = demo.apps ?? [];
const sandboxUrl = `${location.protocol}//${location.hostname}:${demo.sandboxPort}${demo.sandboxPath}`;

// The servers to try: the SDK fixture at /mcp; with ?server=tasks a server
// whose slow tools answer with tasks (the 2026-07-28 extension); with
// ?app=NAME one of the MCP Apps servers the demo relays; with
// ?server=protected the server behind sign-in; with ?url= any MCP
// server on this machine, over either HTTP transport (connectHttp finds out
// which), provided it lets this page's origin call it (CORS).
function serverUrl(query: URLSearchParams): string {
  const app = query.get('app');
  if (app !== null && apps.includes(app)) return new URL(`/apps/${app}/mcp`, location.href).href;
  if (query.get('server') === 'protected' && demo.signIn) return demo.signIn.url;
  const given = query.get('url');
  if (given === null) return new URL(query.get('server') === 'tasks' ? '/tasks' : '/mcp', location.href).href;
  // A link someone sends must not make this page a client of their server.
  const url = URL.canParse(given) ? new URL(given) : undefined;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return url.href;
  const refusal = `will not connect to ${JSON.stringify(given)}: ?url= takes an http URL on this machine (127.0.0.1, localhost or [::1])`;
  $('server').textContent = refusal;
  throw new Error(refusal);
}

$('app-links').append(
  ...apps.flatMap((name) => {
    const link = document.createElement('a');
    link.href = `/?app=${encodeURIComponent(name)}`;
    link.textContent = name;
    return [' · ', link];
  }),
);
bindThemeButton($('theme') as HTMLButtonElement);

const broker = new InputBroker();
const query = new URLSearchParams(location.search);
// The protected server's sign-in: a popup, opened by the Sign in button's
// click (a window opened any later is one the browser blocks); the tokens
// in this tab's sessionStorage, so a reload keeps them and a new tab signs in again.
const signIn = query.get('server') === 'protected' && demo.signIn ? popupSignIn({ redirectUrl: '/signed-in' }) : undefined;
const auth = signIn && demo.signIn ? { clientId: demo.signIn.clientId, redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore: new BrowserTokenStore() } : undefined;
// Declaring the MCP Apps extension is what makes a server that checks for it offer its UI tools.
const url = serverUrl(query);
const mcp = McpClient.connectHttp({ url, onElicit: broker.onElicit, onElicitUrl: broker.onElicit, logLevel: 'info', tasks: true, extensions: appsExtension, ...(auth ? { auth } : {}) });

// auth$, as it comes: the Sign in button shows while a sign-in waits for the person.
const signInButton = $('sign-in') as HTMLButtonElement;
signInButton.onclick = () => signIn?.open();
mcp.auth$.subscribe((state) => {
  signInButton.hidden = state.state !== 'signing-in';
  $('auth').textContent = state.state === 'failed' ? `sign-in failed: ${state.error.message}` : state.state === 'signing-in' ? 'sign-in needed' : state.state;
});

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
};

mcp.describe().subscribe({
  next: (server) => ($('server').textContent = `${server.serverInfo?.name ?? 'server'} · ${server.era} era · ${server.protocolVersion} · ${server.wire}`),
  error: (error: Error) => ($('server').textContent = `cannot connect: ${error.message}`),
});

// Each tool held to the definition this page first saw (per server URL): one
// its server changed since is asked about in a dialog, and left out unless approved.
const pins = new Pins({ provider: mcp, store: new StoredPins(`rxmcp-pins ${url}`), onDrift: driftDialog, onWarn: (line) => log(line) });

// The catalogue, and again whenever the server says it changed.
function showTools(refresh: boolean): void {
  const pinned = (tools: Tool[]) => from(pins.check(tools).then((reports) => tools.filter((_tool, n) => ['pinned', 'new'].includes(reports[n]?.status ?? ''))));
  mcp.listTools({ refresh }).pipe(switchMap(pinned)).subscribe((tools) => {
    const list = $('tools');
    // A tool no longer shown is no longer called from the panel either.
    const chosen = $('call').dataset.tool;
    if (chosen !== undefined && !tools.some((tool) => tool.name === chosen)) $('call').replaceChildren(element('h2', 'Call'), element('p', 'Choose a tool.'));
    list.replaceChildren(
      // A tool only a view may call (visibility ["app"]) is not the user's to call here.
      ...tools.filter((tool) => toolVisibility(tool).model).map((tool) => {
        const button = toolButton(tool);
        button.onclick = () => choose(tool, button);
        return button;
      }),
    );
  });
}
showTools(false);
// A server that cannot listen (the tasks server) just never says its list changed.
mcp.listen({ toolsListChanged: true }).subscribe({ next: () => showTools(true), error: () => undefined });

// A view (or a server) may say as much as it likes: the page keeps the last lines only.
const MAX_LINES = 500;
function keepLast(list: HTMLElement): void {
  while (list.childElementCount > MAX_LINES) list.firstElementChild?.remove();
}

function log(line: string): void {
  const lines = $('log');
  lines.append(element('div', line));
  keepLast(lines);
  lines.scrollTop = lines.scrollHeight;
}
mcp.log$.subscribe(({ level, data }) => log(`[${level}] ${typeof data === 'string' ? data : JSON.stringify(data)}`));

// The page's conversation: there is no model here, so it holds what the
// user did and what views said (their ui/message requests).
function say(who: string, text: string | HTMLElement): void {
  const line = element('div');
  line.append(element('b', who), text);
  $('messages').append(line);
  keepLast($('messages'));
}

// A link a view offers (renderApp passes on http and https URLs alone),
// opened in a new tab only if the user follows it, with no way back to this page.
function sayLink(who: string, url: string): void {
  const link = element('a', url);
  link.href = url;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  say(who, link);
}

// A form for a JSON Schema object: one input per property.
function fields(schema: Record<string, unknown>, values: Record<string, unknown> = {}): [HTMLElement, () => Record<string, unknown>] {
  const form = element('div');
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; title?: string; description?: string; default?: unknown }>;
  const readers: Array<() => [string, unknown]> = [];
  for (const [name, property] of Object.entries(properties)) {
    const label = element('label', property.title ?? name);
    const input = element('input');
    input.name = name;
    if (property.type === 'boolean') {
      input.type = 'checkbox';
      input.checked = (values[name] ?? property.default) === true;
      readers.push(() => [name, input.checked]);
    } else {
      const numeric = property.type === 'number' || property.type === 'integer';
      input.type = numeric ? 'number' : 'text';
      input.value = String(values[name] ?? property.default ?? '');
      readers.push(() => [name, input.value === '' ? undefined : numeric ? Number(input.value) : input.value]);
    }
    if (property.description) input.placeholder = property.description;
    form.append(label, input);
  }
  return [form, () => Object.fromEntries(readers.map((read) => read()).filter(([, value]) => value !== undefined))];
}

let running: Subscription | undefined;

// With "ask before a view's calls" ticked, a view's tool calls go through
// this Policy: it has no rules, so every call is asked about, in the page.
const policy = new Policy({ provider: mcp, onAsk: (question) => ask(question) });

function ask(question: PolicyQuestion): Promise<PermissionAnswer | { action: 'decline' }> {
  if (question.kind !== 'permission') return Promise.resolve({ action: 'decline' });
  const panel = $('ask');
  return new Promise((resolve) => {
    const answer = (action: PermissionAnswer['action']) => () => {
      panel.hidden = true;
      panel.replaceChildren();
      say('you', `${action} ${question.tool}`);
      resolve({ action });
    };
    const buttons = (['allow-once', 'always-allow', 'deny-once'] as const).map((action) => {
      const button = element('button', { 'allow-once': 'Allow once', 'always-allow': 'Always allow', 'deny-once': 'Deny' }[action]);
      button.dataset.action = action;
      button.onclick = answer(action);
      return button;
    });
    const actions = element('div');
    actions.className = 'actions';
    actions.append(...buttons);
    panel.replaceChildren(element('h2', 'A view asks'), element('p', `The view wants to call ${question.tool} with ${JSON.stringify(question.arguments)}`), actions);
    panel.hidden = false;
  });
}

const describeTask = (task: Task): string => `task ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`;

function choose(tool: Tool, button: HTMLElement): void {
  document.querySelectorAll('#tools button').forEach((other) => other.classList.remove('chosen'));
  button.classList.add('chosen');
  const panel = $('call');
  panel.dataset.tool = tool.name;
  const [form, read] = fields(tool.inputSchema);
  const bar = element('div');
  bar.className = 'bar';
  const fill = element('div');
  bar.append(fill);
  const status = element('p');
  status.id = 'status';
  const output = element('pre');
  output.id = 'result';
  const view = element('div');
  view.id = 'view';
  const call = element('button', 'Call');
  call.id = 'run';
  const cancel = element('button', 'Cancel');
  cancel.id = 'cancel';
  cancel.disabled = true;
  const actions = element('div');
  actions.className = 'actions';
  actions.append(call, cancel);
  const hasView = appResourceUri(tool) !== undefined;
  if (hasView) cancel.textContent = 'Close the view';
  // A view shows its own progress.
  bar.hidden = hasView;
  // With a view, the view is what the user reads; the text beside it is what a model would.
  const shown: HTMLElement[] = [output];
  if (hasView) {
    const text = element('details');
    text.append(element('summary', 'the text result, as a model reads it'), output);
    shown.splice(0, 1, view, text);
  }
  panel.replaceChildren(element('h2', tool.name), element('p', tool.description ?? ''), form, actions, bar, status, ...shown);

  call.onclick = () => {
    running?.unsubscribe();
    if (hasView) {
      output.textContent = '';
      status.textContent = 'showing the view…';
      cancel.disabled = false;
      const args = read();
      say('you', `called ${tool.name} ${JSON.stringify(args)}`);
      running = showView({
        client: mcp,
        provider: ($('ask-views') as HTMLInputElement).checked ? policy : undefined,
        tool: tool.name,
        arguments: args,
        sandboxUrl,
        panel: {
          container: view,
          showResult: (text, isError) => {
            status.textContent = isError ? 'the tool reported an error' : 'done';
            output.textContent = text;
          },
          say,
          sayLink,
          log,
        },
      });
      running.add(() => (cancel.disabled = true));
      return;
    }
    fill.style.width = '0';
    output.textContent = '';
    status.textContent = 'running…';
    cancel.disabled = false;
    const token = `web-${Date.now()}`;
    const progress = mcp.progress$.subscribe((event) => {
      if (event.progressToken !== token) return;
      if (event.total) fill.style.width = `${Math.round((100 * event.progress) / event.total)}%`;
      status.textContent = `${event.message ?? 'working'} (${event.progress}${event.total ? `/${event.total}` : ''})`;
    });
    delete status.dataset.taskId;
    // A call the server makes a task streams its states; any other emits its result alone.
    running = mcp.callToolAsTask(tool.name, read(), { progressToken: token, timeoutMs: 0 }).subscribe({
      next: (event) => {
        if (event.kind === 'status') {
          status.dataset.taskId = event.task.taskId;
          status.textContent = describeTask(event.task);
          return;
        }
        const { result } = event;
        fill.style.width = '100%';
        status.textContent = result.isError ? 'the tool reported an error' : 'done';
        output.textContent = result.content.map((block) => block.text ?? `[${block.type}]`).join('\n');
      },
      error: (error: Error) => (status.textContent = `failed: ${error.message}`),
    });
    running.add(progress);
    running.add(() => (cancel.disabled = true));
  };
  // Unsubscribing is the cancellation: the POST is aborted, and the server
  // sees it; a task is sent tasks/cancel.
  cancel.onclick = () => {
    running?.unsubscribe();
    status.textContent = hasView ? 'closed' : 'cancelled';
  };
}

// The server's questions, as a form bound to the broker's pending list.
broker.pending$.subscribe((pending: readonly PendingQuestion[]) => {
  const panel = $('question');
  const question = pending[0];
  panel.hidden = !question;
  if (!question) return;
  if (question.params.mode === 'url') {
    showUrlQuestion(panel, question);
    return;
  }
  const [form, read] = fields((question.params.requestedSchema ?? {}) as Record<string, unknown>);
  const send = element('button', 'Send');
  send.id = 'answer';
  send.onclick = () => question.respond({ action: 'accept', content: read() });
  const decline = element('button', 'Decline');
  decline.onclick = () => question.decline();
  const actions = element('div');
  actions.className = 'actions';
  actions.append(send, decline);
  panel.replaceChildren(element('h2', 'The server asks'), element('p', String(question.params.message ?? '')), form, actions);
});

// A page the server wants opened: the message, the URL with its host marked,
// and Open (the only way the page is opened, on that click) or Decline. All of
// it is text: nothing the server wrote becomes a link or markup.
function showUrlQuestion(panel: HTMLElement, question: PendingQuestion): void {
  const view = urlQuestionView(question.params);
  const decline = element('button', 'Decline');
  decline.id = 'url-decline';
  decline.onclick = () => question.decline();
  const actions = element('div');
  actions.className = 'actions';
  if ('refused' in view) {
    const why = element('p', `Refused: ${view.refused.reason}. The page will not be opened: ${view.refused.text}`);
    why.id = 'url-refused';
    actions.append(decline);
    panel.replaceChildren(element('h2', 'The server asks you to open a page'), element('p', view.message), why, actions);
    return;
  }
  const { url, host, before, after } = view.offer;
  const shown = element('code');
  shown.id = 'url-shown';
  const mark = element('mark', host);
  mark.id = 'url-host';
  shown.append(before, mark, after);
  const open = element('button', `Open ${host}`);
  open.id = 'url-open';
  open.onclick = () => {
    openPage(url);
    question.respond({ action: 'accept' });
  };
  actions.append(open, decline);
  const leads = element('p', 'It leads to ');
  leads.append(element('strong', host), ':');
  panel.replaceChildren(element('h2', 'The server asks you to open a page'), element('p', view.message), leads, shown, actions);
}
