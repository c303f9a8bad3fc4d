import { join } from 'node:path';
import { Toolkit } from '../../src/index.js';
import { parityTools } from '../fixtures/parity-tools.cjs';

/** The parity tools in a Toolkit; `log` receives their begin/end lines. */
export function parityToolkit(log: (line: string) => void = () => undefined): Toolkit {
  const kit = new Toolkit({ name: 'parity' });
  for (const tool of parityTools(log)) {
    kit.tool(tool.name, { description: tool.description, input: tool.input, ...(tool.annotations ? { annotations: tool.annotations } : {}) }, tool.handler);
  }
  return kit;
}

/** The parity server (official SDK) as a stdio command; `legacy` makes it a 2025-era-only server. */
export function parityServer(legacy = false): { command: string; args: string[] } {
  return { command: process.execPath, args: [join(__dirname, '..', 'fixtures', 'parity-server.mjs'), ...(legacy ? ['--legacy'] : [])] };
}
