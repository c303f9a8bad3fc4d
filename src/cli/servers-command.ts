import { existsSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import type { McpClient, ServerEntry, Tool } from '../index.js';
import { FilePins } from '../node/file-pins.js';
import { Pins } from '../providers/pins/pins.js';
import { Toolkit } from '../providers/toolkit.js';
import { pinsPathFor } from './pins-path.js';
import { McpAuthError } from '../errors/auth-errors.js';
import { McpCapabilityError } from '../errors/capability-errors.js';
import type { CliRequest } from './args.js';
import { type ConfigFile, aimedAt, configFiles, sayWarnings, startable } from './configured-server.js';
import { type CliIo, connect, NeedsLogin } from './connect.js';
import { jsonText } from './json-text.js';
import { terminalLine } from './terminal-text.js';

/** How long `rxmcp servers` gives each server to start and list its tools, unless --timeout says otherwise. */
const PROBE_MS = 15_000;
/** How many servers it probes at once: a user's config may hold dozens of commands. */
const AT_ONCE = 8;
/** How much of a failure's reason it shows. */
const REASON_CHARS = 300;

/** One configured server as `rxmcp servers --json` describes it (docs/cli.md). */
interface ServerRow {
  name: string;
  source: string;
  scope?: 'project' | 'user';
  app?: string;
  transport: 'stdio' | 'http';
  command?: string;
  url?: string;
  status: 'ready' | 'failed' | 'disabled' | 'skipped';
  era?: string;
  protocolVersion?: string;
  wire?: string;
  serverInfo?: unknown;
  tools?: number;
  error?: string;
  /** Another file earlier in the order has a server of this name: --server NAME picks that one. */
  shadowedBy?: string;
  /** Tools whose definitions differ from those `rxmcp serve` pinned for this config file, with a line diff each. */
  drifted?: Array<{ tool: string; diff: string }>;
  /** Why the pins could not be compared (a damaged pins file). */
  pinsError?: string;
}

/**
 * `rxmcp servers`: every server of the config files (--config FILE, or all
 * that are found), each started and asked for its tools, a few at a time,
 * each within a bounded time. Exits 0 once a file could be read, whatever
 * became of its servers; 3 when none could.
 */
export async function listServers(request: CliRequest, io: CliIo): Promise<number> {
  const files = await configFiles(request, io);
  const rows = files.flatMap((file) => (file.config?.servers ?? []).map((entry) => rowFor(entry, file)));
  const first = new Map<string, string>();
  for (const row of rows) {
    const earlier = first.get(row.name);
    if (earlier === undefined) first.set(row.name, row.source);
    else if (earlier !== row.source) row.shadowedBy = earlier;
  }
  await inTurn(
    rows.filter((row) => row.status === 'ready'),
    (row) => probe(row, request, io),
  );
  if (request.json) {
    const configs = files.map((file) => ({
      path: file.path,
      ...(file.found ? { app: file.found.app, scope: file.found.scope } : {}),
      ...(file.config ? { format: file.config.format, servers: file.config.servers.length } : {}),
      ...(file.config?.warnings ? { warnings: file.config.warnings.map((warning) => warning.message) } : {}),
      ...(file.error ? { error: oneLine(file.error.message) } : {}),
    }));
    io.stdout.write(`${jsonText({ configs, servers: rows.map(({ entry: _entry, ...row }) => row) })}\n`);
  } else {
    io.stdout.write(table(rows));
  }
  for (const file of files) sayWarnings(file, io);
  for (const file of files) if (file.error) io.stderr.write(`rxmcp: cannot read ${terminalLine(file.path)}: ${terminalLine(oneLine(file.error.message))}\n`);
  if (files.length === 0) io.stderr.write('rxmcp: found no MCP config file here or in your home directory; name one with --config FILE\n');
  return files.some((file) => file.config) ? 0 : 3;
}

type Row = ServerRow & { entry: ServerEntry };

function rowFor(entry: ServerEntry, file: ConfigFile): Row {
  const skipped = !startable(file);
  return {
    entry,
    name: entry.name,
    source: file.path,
    ...(file.found ? { scope: file.found.scope, app: file.found.app } : {}),
    transport: entry.transport,
    // Only the executable and the address: arguments, query strings and user
    // info can hold keys, and env and header values are secrets.
    ...(entry.transport === 'stdio' ? { command: entry.command } : { url: bareUrl(entry.url) }),
    status: entry.disabled ? 'disabled' : skipped ? 'skipped' : entry.error ? 'failed' : 'ready',
    ...(skipped && !entry.disabled ? { error: `a project's config: run rxmcp servers --config ${file.path} to start its servers` } : {}),
    ...(!skipped && !entry.disabled && entry.error ? { error: oneLine(entry.error.message) } : {}),
  };
}

async function probe(row: Row, request: CliRequest, io: CliIo): Promise<void> {
  const budget = request.timeoutMs ?? PROBE_MS;
  const signal = AbortSignal.timeout(budget);
  let mcp: McpClient | undefined;
  try {
    mcp = connect({ ...aimedAt(request, row.entry), noInput: true, timeoutMs: budget }, io, undefined, row.name);
    const description = await firstValueFrom(mcp.describe({ signal }));
    // A server without the tools capability has none: it is listed with 0, not failed.
    const tools = await firstValueFrom(mcp.listTools({ signal })).catch((error: unknown) => {
      if (error instanceof McpCapabilityError) return [];
      throw error;
    });
    Object.assign(row, {
      era: description.era,
      protocolVersion: description.protocolVersion,
      wire: description.wire,
      ...(description.serverInfo ? { serverInfo: description.serverInfo } : {}),
      tools: tools.length,
    });
    await comparePins(row, tools);
  } catch (error) {
    row.status = 'failed';
    row.error = signal.aborted
      ? `no answer within ${budget} ms`
      : error instanceof McpAuthError && error.cause instanceof NeedsLogin
        ? `wants you to sign in: run rxmcp login --server ${row.name}`
        : oneLine(error instanceof Error ? error.message : String(error));
  } finally {
    await mcp?.close();
  }
}

// What `rxmcp serve` pinned for this config file against what the server
// lists now: a dry run, which pins nothing and asks nobody. The keys are the
// names serve gives the tools (server name, `_`, tool name).
async function comparePins(row: Row, tools: readonly Tool[]): Promise<void> {
  const path = pinsPathFor(row.source);
  if (!existsSync(path)) return;
  // Pins reads no tools of its own here: it only compares the ones given.
  const pins = new Pins({ provider: new Toolkit({ name: 'rxmcp-servers' }), store: new FilePins({ path }) });
  const reports = await pins.check(
    tools.map((tool) => ({ ...tool, name: `${row.name}_${tool.name}` })),
    { dryRun: true },
  );
  const broken = reports.find((report) => report.status === 'unchecked');
  if (broken) row.pinsError = oneLine(broken.reason ?? 'the pins could not be read');
  const drifted = reports.filter((report) => report.status === 'drifted').map((report) => ({ tool: report.tool, diff: report.diff ?? '' }));
  if (drifted.length > 0) row.drifted = drifted;
}

// Runs `work` on every item, at most AT_ONCE at a time.
async function inTurn<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
}

function table(rows: readonly Row[]): string {
  const cells = [
    ['NAME', 'TRANSPORT', 'ERA', 'TOOLS', 'STATUS', 'SOURCE'],
    ...rows.map((row) => [row.name, row.transport, row.era ?? '-', row.tools === undefined ? '-' : String(row.tools), row.status, row.source].map(terminalLine)),
  ];
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((line) => (line[column] as string).length))) ?? [];
  const lines = cells.map((line) => line.map((cell, column) => cell.padEnd(widths[column] as number)).join('  ').trimEnd());
  const reasons = rows.flatMap((row) => [
    ...(row.error === undefined ? [] : [`${terminalLine(row.name)}: ${terminalLine(row.error)}`]),
    ...(row.shadowedBy === undefined ? [] : [`${terminalLine(row.name)} (${terminalLine(row.source)}): --server picks the one in ${terminalLine(row.shadowedBy)}`]),
    ...(row.pinsError === undefined ? [] : [`${terminalLine(row.name)}: its pins cannot be compared: ${terminalLine(row.pinsError)}`]),
    ...(row.drifted ?? []).flatMap(({ tool, diff }) => [
      `${terminalLine(row.name)}: ${terminalLine(tool)} changed since rxmcp serve pinned it (hidden there until approved):`,
      ...diff.split('\n').map((line) => `    ${terminalLine(line)}`),
    ]),
  ]);
  return [...lines, ...(reasons.length ? ['', ...reasons] : [])].join('\n') + '\n';
}

function oneLine(message: string): string {
  const line = message.replace(/\s*\n\s*/g, ' | ');
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS)}…` : line;
}

function bareUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
