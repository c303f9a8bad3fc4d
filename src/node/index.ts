// rxmcp/node: helpers that need Node (the file system, an HTTP listener, a
// browser opened through a child process). Not loaded by the package's root
// entry, which stays browser-safe.

export { FileTokenStore } from './file-token-store.js';
export type { FileTokenStoreOptions } from './file-token-store.js';
export { loopbackSignIn } from './loopback-sign-in.js';
export type { LoopbackSignIn, LoopbackSignInOptions } from './loopback-sign-in.js';
export { readServerConfig } from '../config/read-server-config.js';
export type { ReadServerConfigOptions } from '../config/read-server-config.js';
export { findServerConfigs } from '../config/find-server-configs.js';
export type { FindServerConfigsOptions, FoundConfig } from '../config/find-server-configs.js';
export { FileGrants } from './file-grants.js';
export type { FileGrantsOptions } from './file-grants.js';
export { FileCatalogue } from './file-catalogue.js';
export type { FileCatalogueOptions } from './file-catalogue.js';
export { FilePins } from './file-pins.js';
export type { FilePinsOptions } from './file-pins.js';
