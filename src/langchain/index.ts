// rxmcp/langchain: any ToolProvider as LangChain structured tools. Needs
// `@langchain/core` (an optional peer dependency); the root entry never loads this.

export { langchainTools } from './langchain-tools.js';
export type { LangchainToolsOptions } from './langchain-tools.js';
