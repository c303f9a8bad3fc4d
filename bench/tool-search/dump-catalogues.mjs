// Writes the tool lists of real servers, as they declare them, to
// bench/tool-search/catalogues/*.json: the catalogues the tool search bench
// ranks (bench/tool-search.mjs). Run after `npm run build`:
//
//   node bench/tool-search/dump-catalogues.mjs
//
// The lists are committed, so the bench needs no server; run this again when
// a server's version in package.json changes. github.json is not a dump: it
// is a fixture written by hand, shaped like a GitHub server's tools.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, '../../node_modules');
const scratch = mkdtempSync(join(tmpdir(), 'rxmcp-dump-'));
const servers = {
  everything: [join(modules, '@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  filesystem: [join(modules, '@modelcontextprotocol/server-filesystem/dist/index.js'), scratch],
  memory: [join(modules, '@modelcontextprotocol/server-memory/dist/index.js')],
  playwright: [join(modules, '@playwright/mcp/cli.js'), '--headless'],
};

mkdirSync(join(here, 'catalogues'), { recursive: true });
for (const [name, args] of Object.entries(servers)) {
  const client = McpClient.connectStdio({ command: process.execPath, args, env: { MEMORY_FILE_PATH: join(scratch, 'memory.json') } });
  try {
    const tools = await firstValueFrom(client.listTools());
    const kept = tools.map(({ name: tool, title, description, inputSchema }) => ({ name: tool, ...(title ? { title } : {}), ...(description ? { description } : {}), inputSchema }));
    writeFileSync(join(here, 'catalogues', `${name}.json`), JSON.stringify(kept, null, 1) + '\n');
    process.stdout.write(`${name}: ${kept.length} tools\n`);
  } finally {
    await client.close();
  }
}
