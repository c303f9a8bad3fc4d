import { parseArgs } from 'node:util';
import type { HttpTransportKind } from '../transport/http-options.js';
import { LOGGING_LEVELS } from '../protocol/types.js';
import { LONGEST_TIMER_MS } from '../util/checks.js';

/** The usage text, printed by `--help` and after a usage error. */
export const USAGE = `Usage: rxmcp [options] COMMAND [ARGS] (--url URL | --server NAME | --config FILE | -- SERVER-COMMAND [SERVER-ARGS...])
       rxmcp [--config FILE] [--json] servers
       rxmcp [--config FILE] servers --approve TOOL [--yes]
       rxmcp serve --config FILE [--policy FILE] [--http PORT [--host H]] [--token-env NAME] [--no-prefix] [--tool-search] [--verbose]
       rxmcp inspect [--no-open] [--url URL | --config FILE --server NAME | -- SERVER-COMMAND [SERVER-ARGS...]]

Talks to one MCP server: over stdio (the command after --) or HTTP (--url), where
it finds out whether the URL serves Streamable HTTP or the older HTTP+SSE; or to
a server written in a config file (Claude Desktop, Claude Code, Cursor, VS Code,
Windsurf, Codex) by its name.

Commands:
  describe                 the server's era, version, wire, identity, capabilities and instructions
  tools                    its tools
  resources                its resources
  templates                its resource templates
  prompts                  its prompts
  call TOOL [JSON|-] [key=value...]
                           calls a tool; arguments as a JSON object (- reads it from stdin)
                           and/or key=value pairs typed by the tool's input schema;
                           --arg key=value takes a value as JSON when it parses
  read URI                 reads a resource
  prompt NAME [JSON|-] [key=value...]
                           renders a prompt with its arguments (strings, as prompts take them)
  tasks                    the server's tasks (long-running tool calls)
  task ID                  follows a task and prints its result; Ctrl-C detaches
                           (the task goes on), --cancel cancels it instead
  listen                   prints list-changed notifications until interrupted
  ping                     pings the server
  login                    signs in to an OAuth-protected HTTP server (--url, or --server NAME)
                           in the browser and keeps the tokens for the other commands
  logout                   forgets the tokens kept for that server
  servers                  every configured server: its file, transport, era, tool count and
                           status, all probed at once (a project's own config only with --config);
                           with --approve TOOL: shows how the served tool TOOL (SERVER_TOOL) changed
                           since rxmcp serve pinned it, asks y/N, and re-pins it on a yes
  serve                    serves every server of --config FILE as one MCP server, behind the
                           permission rules of --policy FILE (default: reads pass, the rest is
                           asked of the MCP host); over stdio, or HTTP with --http
  inspect                  a web page on 127.0.0.1 that connects to a server and shows all it
                           offers, live: tools, resources, prompts, tasks, results, its questions,
                           MCP Apps views, its log and every message; a stdio server is reached
                           through the gateway (prints the page's URL, token included, and opens it)

Options:
  --server NAME            the server of that name in the config files rxmcp finds
                           (the first in their order; --verbose says which file)
  --config FILE            the config file to read (with --server: the server in it;
                           alone: its only server; with servers: list it alone)
  --url URL                the server's HTTP endpoint (Streamable HTTP, or HTTP+SSE's event stream)
  --http-transport T       with --url: auto (default: Streamable HTTP, else HTTP+SSE),
                           streamable-http or sse
  --header 'Name: value'   an HTTP header for every request (repeatable)
  --env KEY=VALUE          an environment entry for a stdio server (repeatable)
  --cwd DIR                the working directory of a stdio server
  --root DIR               offer the server DIR as a root, a folder it may work in (repeatable)
  --arg key=value          a tool or prompt argument (repeatable)
  --no-check               call, prompt: send the arguments unchecked (call and prompt check them
                           against the tool's input schema or the prompt's declared arguments first)
  --json                   machine-readable output on stdout, for every command
  --timeout MS             the budget of each call in milliseconds (default 60000; servers
                           gives each server this long in all, default 15000; serve: each
                           host's call upstream, restarted by progress when the host asked for it)
  --log-level LEVEL        ask for the server's log messages from LEVEL up, printed on stderr
  --protocol-version V     the modern protocol version to speak (default 2026-07-28)
  --no-input               decline every question the server asks
  --cancel                 with task ID: cancel the task
  --client-id ID           sign in as this registered OAuth client (default: register one)
  --scope SCOPES           the OAuth scopes to ask for when signing in (space-separated)
  --no-browser             login (and a server's request to open a page) prints the URL
                           without opening a browser
  --verbose                print the server's stderr, the client's warnings and the data
                           of a server's error on stderr (serve: the upstream servers' stderr
                           and their clients' warnings)
  --policy FILE            serve: the policy file (rules, roots, leases, redis, grantsFile)
  --http PORT              serve: Streamable HTTP on PORT (0 picks a free one) instead of stdio
  --host H                 serve --http: the address to listen on (default 127.0.0.1); any other
                           than loopback needs --token-env
  --token-env NAME         serve --http: the bearer token every request must carry, taken from
                           environment variable NAME (without it: one made for this run and
                           printed on stderr, with the host configs that carry it)
  --allowed-host NAME      serve --http: a Host header to accept (repeatable; default the loopback
                           names, and --host when it names one machine)
  --no-prefix              serve: the config's one enabled server, its tools under their own names
  --approve TOOL           servers: approve the change of TOOL, a tool serve hides because its
                           server changed it (the name serve shows: SERVER_TOOL)
  --yes                    servers --approve: approve without asking (a script, stdin not a terminal)
  --no-open                inspect: print the page's URL without opening a browser
  --tool-search            serve: show hosts the always-loaded tools (alwaysLoad servers) and a
                           tool_search tool; what a host's searches find joins its list alone
  -h, --help               this text
  --version                rxmcp's version

Exit codes: 0 success; 1 the tool reported an error (isError: call and task, whose
--json output is the result all the same), or servers --approve was not approved; 2 usage (an unknown server name, JSON
arguments that do not parse, arguments that do not fit the tool's schema); 3 connection, protocol or timeout
error, a config file that cannot be read, or any other failure; 130 interrupted.
servers exits 0 when it read a config, even if every server in it failed.

What the server sends is shown with its control, bidi and invisible characters
as visible escapes (\\x1b, \\u202e); --json escapes them too, as \\u escapes.

Examples:
  rxmcp tools -- npx -y @modelcontextprotocol/server-everything
  rxmcp call echo '{"message":"hi"}' -- node server.js
  rxmcp --url http://127.0.0.1:3000/mcp --json describe
  rxmcp login --url https://mcp.example.com/mcp
  rxmcp servers
  rxmcp servers --config ./mcp.json --approve docs_search_docs
  rxmcp --server everything call get-sum a=2 b=40
  rxmcp --config ./mcp.json --server files --json tools
  rxmcp serve --config ./mcp.json --policy ./policy.json

Tokens from login are kept under $XDG_CONFIG_HOME/rxmcp (or ~/.config/rxmcp),
readable by you alone, and every --url command uses and refreshes them.
`;

/** What the command line asked for. */
export interface CliRequest {
  command: string;
  operands: string[];
  url?: string;
  httpTransport?: HttpTransportKind;
  headers: Record<string, string>;
  server?: { command: string; args: string[] };
  /** `--server NAME`: a server from the config files. */
  serverName?: string;
  /** `--config FILE`: the config file to read. */
  configPath?: string;
  /** call's arguments as JSON text (`-`: from stdin). */
  argumentsJson?: string;
  /** call's `key=value` operands, typed later by the tool's schema. */
  pairs: Array<[string, string]>;
  env: Record<string, string>;
  cwd?: string;
  /** `--root DIR`: folders offered to the server as roots. */
  roots: string[];
  args: Record<string, unknown>;
  json: boolean;
  timeoutMs?: number;
  logLevel?: string;
  protocolVersion?: string;
  noInput: boolean;
  cancel: boolean;
  verbose: boolean;
  help: boolean;
  clientId?: string;
  scope?: string;
  noBrowser: boolean;
  /** serve's `--policy FILE`. */
  policyPath?: string;
  /** serve's `--http PORT`: HTTP instead of stdio. */
  httpPort?: number;
  /** serve's `--host H`. */
  host?: string;
  /** serve's `--token-env NAME`: the variable holding the bearer token. */
  tokenEnv?: string;
  /** serve's `--allowed-host NAME` values. */
  allowedHosts: string[];
  /** serve's `--no-prefix`. */
  noPrefix: boolean;
  /** serve's `--tool-search`. */
  toolSearch: boolean;
  /** servers' `--approve TOOL`: the served name of a changed tool to re-pin. */
  approve?: string;
  /** servers --approve's `--yes`: approve without asking. */
  yes: boolean;
  /** inspect's `--no-open`. */
  noOpen: boolean;
  /** `--version`: print rxmcp's version, and nothing else. */
  version: boolean;
  /** call's and prompt's `--no-check`: send the arguments without checking them against the schema. */
  noCheck: boolean;
}

// What --http-transport takes: the values of connectHttp's httpTransport.
const HTTP_TRANSPORTS: readonly string[] = ['auto', 'streamable-http', 'sse'] satisfies HttpTransportKind[];

/** A mistake on the command line (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

const COMMANDS: Record<string, { min: number; max: number }> = {
  describe: { min: 0, max: 0 },
  tools: { min: 0, max: 0 },
  resources: { min: 0, max: 0 },
  templates: { min: 0, max: 0 },
  prompts: { min: 0, max: 0 },
  call: { min: 1, max: Infinity },
  read: { min: 1, max: 1 },
  prompt: { min: 1, max: Infinity },
  listen: { min: 0, max: 0 },
  tasks: { min: 0, max: 0 },
  task: { min: 1, max: 1 },
  ping: { min: 0, max: 0 },
  login: { min: 0, max: 0 },
  logout: { min: 0, max: 0 },
  servers: { min: 0, max: 0 },
  serve: { min: 0, max: 0 },
  inspect: { min: 0, max: 0 },
};


/** Reads the command line; everything after `--` is the stdio server's command. */
export function parseCommandLine(argv: readonly string[]): CliRequest {
  const split = argv.indexOf('--');
  const own = split === -1 ? [...argv] : argv.slice(0, split);
  const serverWords = split === -1 ? [] : argv.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        server: { type: 'string' },
        config: { type: 'string' },
        'http-transport': { type: 'string' },
        header: { type: 'string', multiple: true },
        env: { type: 'string', multiple: true },
        cwd: { type: 'string' },
        root: { type: 'string', multiple: true },
        arg: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        'log-level': { type: 'string' },
        'protocol-version': { type: 'string' },
        'no-input': { type: 'boolean', default: false },
        cancel: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        'client-id': { type: 'string' },
        scope: { type: 'string' },
        'no-browser': { type: 'boolean', default: false },
        policy: { type: 'string' },
        http: { type: 'string' },
        host: { type: 'string' },
        'token-env': { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'no-prefix': { type: 'boolean', default: false },
        'tool-search': { type: 'boolean', default: false },
        approve: { type: 'string' },
        yes: { type: 'boolean', default: false },
        'no-open': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
        'no-check': { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  const [command = '', ...operands] = positionals;
  const request: CliRequest = {
    command,
    operands,
    headers: {},
    env: {},
    args: {},
    pairs: [],
    json: values.json === true,
    noInput: values['no-input'] === true,
    roots: values.root ?? [],
    cancel: values.cancel === true,
    verbose: values.verbose === true,
    help,
    noBrowser: values['no-browser'] === true,
    allowedHosts: values['allowed-host'] ?? [],
    noPrefix: values['no-prefix'] === true,
    toolSearch: values['tool-search'] === true,
    yes: values.yes === true,
    noOpen: values['no-open'] === true,
    version: values.version === true,
    noCheck: values['no-check'] === true,
  };
  if (help || request.version) return request;
  const shape = COMMANDS[command];
  if (!shape) throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : 'no command given');
  if (operands.length < shape.min || operands.length > shape.max) throw new UsageError(`wrong number of arguments for ${command}`);
  const configured = values.server !== undefined || values.config !== undefined;
  if (values.server !== undefined) request.serverName = values.server;
  if (values.config !== undefined) request.configPath = values.config;
  serveOptions(request, values, serverWords.length > 0);
  if (command === 'serve') {
    // Nothing else to check: serve's own options are all it reads.
  } else if (command === 'servers') {
    if (values.url !== undefined || serverWords.length > 0 || values.server !== undefined) throw new UsageError('servers lists the configured servers: give it --config FILE or nothing');
  } else {
    const sources = [values.url !== undefined, serverWords.length > 0, configured].filter(Boolean).length;
    if (sources > 1) throw new UsageError('give one server: --url, --server/--config or a command after --, not both');
    // inspect without a server opens the page on its connect form.
    if (sources === 0 && command !== 'inspect') throw new UsageError('no server: give --url URL, --server NAME, --config FILE or a command after --');
  }
  if ((command === 'login' || command === 'logout') && serverWords.length > 0) throw new UsageError(`${command} signs in to an HTTP server: give --url URL or --server NAME`);
  if (request.cancel && command !== 'task') throw new UsageError('--cancel goes with task ID');
  if (values.approve !== undefined) {
    if (command !== 'servers') throw new UsageError('--approve goes with servers');
    if (values.approve === '') throw new UsageError('--approve wants the name of a tool, as rxmcp serve shows it (SERVER_TOOL)');
    request.approve = values.approve;
  }
  if (request.yes && request.approve === undefined) throw new UsageError('--yes goes with servers --approve TOOL');
  if (request.noOpen && command !== 'inspect') throw new UsageError('--no-open goes with inspect');
  if (request.noCheck && command !== 'call' && command !== 'prompt') throw new UsageError('--no-check goes with call and prompt');
  if (values['client-id'] !== undefined) request.clientId = values['client-id'];
  if (values.scope !== undefined) request.scope = values.scope;
  if (values.url !== undefined) {
    if (!URL.canParse(values.url) || !['http:', 'https:'].includes(new URL(values.url).protocol)) throw new UsageError(`--url wants an http or https URL, got ${JSON.stringify(values.url)}`);
    request.url = values.url;
  }
  const httpTransport = values['http-transport'];
  if (httpTransport !== undefined) {
    if (values.url === undefined) throw new UsageError('--http-transport goes with --url');
    if (!HTTP_TRANSPORTS.includes(httpTransport)) throw new UsageError(`--http-transport wants one of ${HTTP_TRANSPORTS.join(', ')}, got ${JSON.stringify(httpTransport)}`);
    request.httpTransport = httpTransport as HttpTransportKind;
  }
  if (serverWords.length > 0) request.server = { command: serverWords[0] as string, args: serverWords.slice(1) };
  for (const header of values.header ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header wants 'Name: value', got ${JSON.stringify(header)}`);
    request.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  for (const entry of values.env ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env wants KEY=VALUE, got ${JSON.stringify(entry)}`);
    request.env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  if (command === 'call' || command === 'prompt') argumentOperands(request);
  for (const entry of values.arg ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--arg wants key=value, got ${JSON.stringify(entry)}`);
    request.args[entry.slice(0, eq)] = jsonOrText(entry.slice(eq + 1));
  }
  if (values.cwd !== undefined) request.cwd = values.cwd;
  if (values.timeout !== undefined) {
    const ms = Number(values.timeout);
    if (!Number.isFinite(ms) || ms < 0 || ms > LONGEST_TIMER_MS) {
      throw new UsageError(`--timeout wants milliseconds, at most ${LONGEST_TIMER_MS}; got ${JSON.stringify(values.timeout)}`);
    }
    request.timeoutMs = ms;
  }
  if (values['log-level'] !== undefined) {
    if (!(LOGGING_LEVELS as readonly string[]).includes(values['log-level'])) throw new UsageError(`--log-level wants one of ${LOGGING_LEVELS.join(', ')}`);
    request.logLevel = values['log-level'];
  }
  if (values['protocol-version'] !== undefined) request.protocolVersion = values['protocol-version'];
  return request;
}

// serve's options, which no other command takes.
function serveOptions(
  request: CliRequest,
  values: { config?: string; url?: string; server?: string; policy?: string; http?: string; host?: string; 'token-env'?: string; 'allowed-host'?: string[]; 'no-prefix'?: boolean },
  serverWords: boolean,
): void {
  const own = ['policy', 'http', 'host', 'token-env', 'allowed-host'] as const;
  if (request.command !== 'serve') {
    for (const name of own) if (values[name] !== undefined) throw new UsageError(`--${name} goes with serve`);
    if (request.noPrefix) throw new UsageError('--no-prefix goes with serve');
    if (request.toolSearch) throw new UsageError('--tool-search goes with serve');
    return;
  }
  if (values.url !== undefined || values.server !== undefined || serverWords) throw new UsageError('serve serves the servers of a config file: give --config FILE, not --url, --server or a command');
  if (values.config === undefined) throw new UsageError('serve needs --config FILE: the servers to serve');
  if (values.policy !== undefined) request.policyPath = values.policy;
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!/^\d+$/.test(values.http) || port > 65_535) throw new UsageError(`--http wants a port from 0 to 65535, got ${JSON.stringify(values.http)}`);
    request.httpPort = port;
  }
  for (const name of ['host', 'token-env', 'allowed-host'] as const) {
    if (values[name] !== undefined && request.httpPort === undefined) throw new UsageError(`--${name} goes with --http: over stdio, the host that started rxmcp is the only one it serves`);
  }
  if (values.host !== undefined) {
    if (values.host === '') throw new UsageError('--host wants an address');
    request.host = values.host;
  }
  if (values['token-env'] !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values['token-env'])) throw new UsageError('--token-env wants the name of an environment variable (the token itself never goes on the command line, where ps shows it)');
    request.tokenEnv = values['token-env'];
  }
}

function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

// call's operands after the tool (prompt's after the prompt): at most one
// JSON object (or -) first, then key=value pairs. A first operand without =
// is taken as JSON, so that a mistyped object still reads as one ("not valid JSON").
function argumentOperands(request: CliRequest): void {
  const [tool, ...rest] = request.operands as [string, ...string[]];
  const first = rest[0];
  if (first !== undefined && (first === '-' || first.trimStart().startsWith('{') || !first.includes('='))) {
    request.argumentsJson = first;
    rest.shift();
  }
  for (const pair of rest) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${request.command} wants key=value after the ${request.command === 'call' ? 'tool' : 'prompt'} and its JSON arguments, got ${JSON.stringify(pair)}`);
    request.pairs.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  request.operands = [tool];
}
