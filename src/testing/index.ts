// rxmcp/testing: test doubles for code built on rxmcp. Not loaded by the
// package's root entry.

export { FakeTransport } from './fake-transport.js';
export type { FakeReply, FakeScript } from './fake-transport.js';
export { InProcessTransport } from './in-process-transport.js';
export { ProgressKit, testKit } from './kits.js';
