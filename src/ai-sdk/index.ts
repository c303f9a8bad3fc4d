// rxmcp/ai-sdk: any ToolProvider as a Vercel AI SDK ToolSet. Needs the `ai`
// package (an optional peer dependency); the root entry never loads this.

export { aiSdkTools } from './ai-sdk-tools.js';
export type { AiSdkToolOutput, AiSdkToolsOptions } from './ai-sdk-tools.js';
