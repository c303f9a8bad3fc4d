import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The dual-era fixture server built with the official SDK. */
export const modernServer = { command: process.execPath, args: [join(root, 'spec/fixtures/modern-server.mjs')] };

/** @modelcontextprotocol/server-everything from node_modules: legacy era only. */
export const everythingServer = {
  command: process.execPath,
  args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

/** A fixture under spec/fixtures, run with this Node. */
export function fixture(name: string, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [join(root, 'spec/fixtures', name), ...args] };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `predicate` holds, polling; rejects after `ms`. */
export async function eventually(predicate: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
