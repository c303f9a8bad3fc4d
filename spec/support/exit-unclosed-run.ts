// Starts spec/fixtures/wrapper-server.mjs (a wrapper whose child ignores the
// end of stdin and SIGTERM), kills the wrapper once its child runs, and
// exits as soon as the client hears the server is gone, never calling
// close(): what the wrapper left behind is this process's exit hook's to end.
//
//   node --import tsx exit-unclosed-run.ts
//
// Prints the wrapper's child's pid, "grandchild <pid>", before it exits.
import { firstValueFrom } from 'rxjs';
import { McpClient, StdioTransport } from '../../src/index.js';
import { fixture } from './servers.js';

const transport = new StdioTransport({
  ...fixture('wrapper-server.mjs'),
  killGraceMs: 200,
  onStderr: (line) => {
    if (!line.startsWith('grandchild ')) return;
    process.stdout.write(`${line}\n`);
    process.kill(transport.pid as number, 'SIGKILL');
  },
});
const mcp = new McpClient({ transport, probeTimeoutMs: 10_000 });
void firstValueFrom(mcp.describe())
  .catch(() => undefined)
  .then(() => process.exit(0));
