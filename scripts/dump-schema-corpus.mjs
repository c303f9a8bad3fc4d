// Dumps the tool catalogues of real MCP servers into
// spec/fixtures/schema-corpus/<server>.json, the corpus the schema spec
// checks every vendor rule against. Each server is started from
// node_modules over stdio and listed with rxmcp's own client (dist/, so run
// `npm run build` first). Nothing goes over the network: where `unshare` can
// make an empty network namespace (Linux, as root or with user namespaces)
// every server runs in one, with only a loopback device; otherwise the
// servers' own update checks and telemetry are switched off and a warning
// says the run was not sealed.
//
//   node scripts/dump-schema-corpus.mjs [server…]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../dist/esm/index.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'spec/fixtures/schema-corpus');
const scratch = mkdtempSync(join(tmpdir(), 'rxmcp-corpus-'));
const modules = join(root, 'node_modules');

const quiet = {
  CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
  CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
  CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY: '1',
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  MEMORY_FILE_PATH: join(scratch, 'memory.jsonl'),
};

/** Each server: its package (for the version), and how to start it so that listing its tools needs nothing outside. */
const servers = {
  playwright: {
    package: '@playwright/mcp',
    // Every optional capability, so the corpus holds every tool it can declare; listing starts no browser.
    args: ['@playwright/mcp/cli.js', '--headless', '--isolated', '--caps', 'vision,pdf,devtools'],
  },
  'chrome-devtools': {
    package: 'chrome-devtools-mcp',
    args: ['chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js', '--headless', '--isolated', '--no-usage-statistics', '--no-performance-crux'],
  },
  filesystem: { package: '@modelcontextprotocol/server-filesystem', args: ['@modelcontextprotocol/server-filesystem/dist/index.js', scratch] },
  // Some of its tools appear only for a client that can answer elicitation, sampling and roots.
  everything: { package: '@modelcontextprotocol/server-everything', args: ['@modelcontextprotocol/server-everything/dist/index.js', 'stdio'], answersInput: true },
  memory: { package: '@modelcontextprotocol/server-memory', args: ['@modelcontextprotocol/server-memory/dist/index.js'] },
  'sequential-thinking': { package: '@modelcontextprotocol/server-sequential-thinking', args: ['@modelcontextprotocol/server-sequential-thinking/dist/index.js'] },
};

function sealed() {
  try {
    execFileSync('unshare', ['--net', '--map-root-user', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const decline = async () => ({ action: 'decline' });

async function dump(name, server, seal) {
  const script = join(modules, server.args[0]);
  const argv = [process.execPath, script, ...server.args.slice(1)];
  const [command, ...args] = seal ? ['unshare', '--net', '--map-root-user', ...argv] : argv;
  const hooks = server.answersInput
    ? { onElicit: decline, onSample: decline, onListRoots: async () => ({ roots: [{ uri: `file://${scratch}`, name: 'scratch' }] }) }
    : {};
  const client = McpClient.connectStdio({ command, args, env: quiet, cwd: scratch, ...hooks });
  try {
    let tools = await firstValueFrom(client.listTools());
    if (server.answersInput) {
      // Tools that depend on the client's capabilities are registered once the handshake is over.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      tools = await firstValueFrom(client.listTools({ refresh: true }));
    }
    const version = JSON.parse(readFileSync(join(modules, server.package, 'package.json'), 'utf8')).version;
    const dumped = { server: name, package: `${server.package}@${version}`, arguments: server.args.slice(1).filter((arg) => arg !== scratch), tools };
    writeFileSync(join(out, `${name}.json`), JSON.stringify(dumped, null, 2) + '\n');
    console.log(`${name}: ${tools.length} tools`);
  } finally {
    await client.close();
  }
}

const wanted = process.argv.slice(2);
for (const name of wanted) if (!(name in servers)) throw new Error(`Unknown server ${JSON.stringify(name)}; known: ${Object.keys(servers).join(', ')}`);
const seal = sealed();
if (!seal) console.warn('unshare cannot make a network namespace here: the servers run with their update checks and telemetry off, but not sealed off the network');
mkdirSync(out, { recursive: true });
try {
  for (const [name, server] of Object.entries(servers)) if (wanted.length === 0 || wanted.includes(name)) await dump(name, server, seal);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
