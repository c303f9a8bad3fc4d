import { existsSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import type { McpClient, ServerEntry, Tool } from '../index.js';
import { FilePins } from '../node/file-pins.js';
import { Pins, type PinReport } from '../providers/pins/pins.js';
import { Toolkit } from '../providers/toolkit.js';
import { messageOf } from '../util/values.js';
import { type CliRequest, UsageError } from './args.js';
import { type ConfigFile, aimedAt, configFiles, sayWarnings, startable } from './configured-server.js';
import { type CliIo, connect } from './connect.js';
import { askToApproveDrift } from './drift-question.js';
import { jsonText } from './json-text.js';
import { pinsPathFor } from './pins-path.js';
import { terminalLine } from './terminal-text.js';

/** Exit codes, as main.ts has them. */
const OK = 0;
const NOT_APPROVED = 1;
const FAILURE = 3;
/** How long a server is given to start and list its tools, unless --timeout says otherwise. */
const LIST_MS = 15_000;

/** What became of the tool in one config file. */
type Outcome = 'approved' | 'declined' | 'unchanged' | 'unpinned' | 'failed';

/** A server whose served name could be the start of the tool's. */
interface Candidate {
  file: ConfigFile;
  entry: ServerEntry;
  /** The tool's name on the server itself. */
  own: string;
}

/**
 * `rxmcp servers --approve TOOL`: the change of one tool that `rxmcp serve`
 * hides because its server changed its definition. TOOL is the name serve
 * shows (`SERVER_TOOL`); each configured server whose name it starts with is
 * started and asked for its tools, and where one lists it, its definition
 * now is compared with the pin in serve's pins file for that config file.
 * A change is shown as a diff and asked about (`--yes` answers beforehand);
 * a yes re-pins the tool through `Pins` and `FilePins` (locked, atomic), so
 * a running serve shows it again from its next listing. Resolves with 0
 * (approved, or nothing to approve), 1 (declined), 3 (a server could not be
 * listed, the pins file cannot be read or written).
 * @throws UsageError when no configured server lists TOOL.
 */
export async function approveTool(request: CliRequest, io: CliIo): Promise<number> {
  const tool = request.approve as string;
  const files = await configFiles(request, io);
  for (const file of files) sayWarnings(file, io);
  for (const file of files) if (file.error) io.stderr.write(`rxmcp: cannot read ${terminalLine(file.path)}: ${terminalLine(messageOf(file.error))}\n`);
  const candidates = files
    .filter((file) => startable(file))
    .flatMap((file) =>
      (file.config?.servers ?? []).filter((entry) => !entry.disabled && !entry.error && tool.startsWith(`${entry.name}_`)).map((entry) => ({ file, entry, own: tool.slice(entry.name.length + 1) })),
    );
  const found: Array<Candidate & { definition: Tool }> = [];
  let unreachable = false;
  for (const candidate of candidates) {
    try {
      const definition = await listed(candidate, request, io);
      if (definition) found.push({ ...candidate, definition });
    } catch (error) {
      unreachable = true;
      io.stderr.write(`rxmcp: could not list the tools of ${terminalLine(candidate.entry.name)} (${terminalLine(candidate.file.path)}): ${terminalLine(messageOf(error))}\n`);
    }
  }
  if (found.length === 0) {
    if (unreachable) return FAILURE;
    throw new UsageError(`no configured server lists a tool ${JSON.stringify(tool)}: give the name rxmcp serve shows, SERVER_TOOL (rxmcp tools --server SERVER lists a server's own names)`);
  }
  const results: Array<{ config: string; server: string; pinsFile: string; outcome: Outcome; reason?: string }> = [];
  for (const match of found) {
    const pinsFile = pinsPathFor(match.file.path);
    const { outcome, reason } = await approveOne(tool, match.definition, pinsFile, request, io);
    results.push({ config: match.file.path, server: match.entry.name, pinsFile, outcome, ...(reason === undefined ? {} : { reason }) });
  }
  if (request.json) io.stdout.write(`${jsonText({ tool, results })}\n`);
  else for (const result of results) (result.outcome === 'failed' ? io.stderr : io.stdout).write(`${sentence(tool, result.outcome, result.reason)}\n`);
  if (results.some((result) => result.outcome === 'failed')) return FAILURE;
  return results.some((result) => result.outcome === 'declined') ? NOT_APPROVED : OK;
}

// The server's own definition of the tool, when it lists one.
async function listed({ file, entry, own }: Candidate, request: CliRequest, io: CliIo): Promise<Tool | undefined> {
  const budget = request.timeoutMs ?? LIST_MS;
  const signal = AbortSignal.timeout(budget);
  let mcp: McpClient | undefined;
  try {
    // The server's questions are declined: this run asks about the tool alone.
    mcp = connect({ ...aimedAt(request, entry), noInput: true, timeoutMs: budget }, io, undefined, `${file.path}: ${entry.name}`);
    const tools = await firstValueFrom(mcp.listTools({ signal }));
    return tools.find((tool) => tool.name === own);
  } catch (error) {
    throw signal.aborted ? new Error(`no answer within ${budget} ms`) : error;
  } finally {
    await mcp?.close();
  }
}

// The tool against serve's pin in one pins file: a dry run first, which
// pins nothing, so that a tool serve never pinned is not pinned here; then,
// for a change, the check that asks (and re-pins on a yes).
async function approveOne(key: string, definition: Tool, pinsFile: string, request: CliRequest, io: CliIo): Promise<{ outcome: Outcome; reason?: string }> {
  if (!existsSync(pinsFile)) return { outcome: 'unpinned' };
  const pins = new Pins({
    // Pins lists no tools of its own here: it only checks the one given.
    provider: new Toolkit({ name: 'rxmcp-approve' }),
    store: new FilePins({ path: pinsFile }),
    onDrift: (question) =>
      askToApproveDrift(question, pinsFile, { input: io.stdin, output: io.stderr, interactive: !request.noInput && io.stdin.isTTY === true, yes: request.yes }),
    onWarn: () => undefined,
  });
  const tool = { ...definition, name: key };
  const [before] = await pins.check([tool], { dryRun: true });
  const first = outcomeOf(before);
  if (first.outcome !== 'declined') return first;
  const [after] = await pins.check([tool]);
  return after?.status === 'pinned' ? { outcome: 'approved' } : outcomeOf(after);
}

function outcomeOf(report: PinReport | undefined): { outcome: Outcome; reason?: string } {
  switch (report?.status) {
    case 'pinned':
      return { outcome: 'unchanged' };
    case 'new':
      return { outcome: 'unpinned' };
    case 'drifted':
      return { outcome: 'declined' };
    default:
      return { outcome: 'failed', reason: report?.reason ?? 'it could not be checked' };
  }
}

function sentence(tool: string, outcome: Outcome, reason: string | undefined): string {
  const name = terminalLine(tool);
  switch (outcome) {
    case 'approved':
      return `approved: ${name} is pinned to its new definition; rxmcp serve shows it again from its next listing`;
    case 'declined':
      return `not approved: ${name} stays hidden in rxmcp serve`;
    case 'unchanged':
      return `${name} has not changed since rxmcp serve pinned it: nothing to approve`;
    case 'unpinned':
      return `${name} has no pin yet: rxmcp serve pins it as it is when it first lists it`;
    default:
      return `rxmcp: cannot approve ${name}: ${terminalLine(reason ?? '')}`;
  }
}
