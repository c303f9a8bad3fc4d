// The hostile-answer corpus, typed, for specs. The answers themselves live in
// spec/fixtures/hostile-corpus.cjs, which hostile-server.mjs serves under
// plain Node; a case is selected as that server's header comment says.
import { join } from 'node:path';
import { cases, type HostileCase, UNECHOABLE_IDS } from '../fixtures/hostile-corpus.cjs';

export type { HostileCase };
export { UNECHOABLE_IDS };

/** Every case, in corpus order. */
export const hostileCases: readonly HostileCase[] = cases;

/** The cases that answer the handshake: each needs a connection of its own. */
export const handshakeCases: readonly HostileCase[] = cases.filter((entry) => entry.handshake === true);

/** The cases a connection can switch to with the tool `select_case`. */
export const callCases: readonly HostileCase[] = cases.filter((entry) => entry.handshake !== true);

/** The hostile server, for `McpClient.connectStdio` (add `--http` to serve HTTP, `--case NAME`, `--legacy`). */
export const hostileServer = { command: process.execPath, args: [join(__dirname, '..', 'fixtures', 'hostile-server.mjs')] };
