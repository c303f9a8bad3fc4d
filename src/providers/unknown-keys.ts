import { annotationsOf, type LlmTool, type LlmToolCall, readBack, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../protocol/types.js';
import { declarationOf, TOOL_DECLARATION } from '../tools/tool-declaration.js';
import { ALWAYS_LOADED, isAlwaysLoaded } from '../tools/always-loaded.js';
import { REASON_PARAM } from './reasons.js';

/** What UnknownKeys reports: a call that carried arguments its tool does not declare. */
export interface UnknownKeysWarning {
  tool: string;
  /** The id of the call that carried them. */
  id: string;
  unknownKeys: string[];
  declaredKeys: string[];
}

/**
 * A smoke alarm for arguments nobody declared: it remembers each tool's
 * declared properties as they pass by, compares every call's argument keys
 * with them, and reports each (tool, undeclared key) once per instance
 * through `onWarn`. It never refuses, strips, rewrites or delays anything,
 * and what the provider below throws goes straight through.
 *
 * Quiet where it has nothing to say: a tool it never saw listed, a tool that
 * declares no properties, arguments that do not parse or are not an object,
 * and the empty string. `reason` is always tolerated. Its seat:
 * `Policy( UnknownKeys( Reasons( Registry ) ) )`.
 */
export class UnknownKeys implements ToolProvider {
  private readonly provider: ToolProvider;
  private readonly onWarn: (warning: UnknownKeysWarning) => void;
  private readonly declared = new Map<string, string[]>();
  private readonly reported = new Set<string>();
  private readonly names = new NameMapper();

  constructor(options: { provider: ToolProvider; onWarn?: (warning: UnknownKeysWarning) => void }) {
    if (typeof options?.provider?.executeToolCalls !== 'function') throw new McpClientError('option provider must be a tool provider');
    this.provider = options.provider;
    this.onWarn = options.onWarn ?? (() => undefined);
  }

  /** The inner provider's tools, remembered under their real names, shown under portable names unless `options.names` says otherwise. */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    return this.names.show(await this.learn(), options.names);
  }

  /** Audits each call under its real name (warnings name the real tool) and passes the batch on. */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    const read = await readBack(this.names, given, givenOptions, () => this.learn());
    if ('answers' in read) return read.answers;
    for (const call of read.calls) this.audit(call);
    return this.provider.executeToolCalls(read.calls, read.options);
  }

  private async learn(): Promise<LlmTool[]> {
    const tools = await this.provider.toolsForLlm({ names: 'real' });
    for (const tool of tools) {
      const properties = (tool.function.parameters as { properties?: Record<string, unknown> }).properties;
      this.declared.set(tool.function.name, Object.keys(properties ?? {}));
    }
    return tools;
  }

  /** What the provider below says about a tool. */
  toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    return annotationsOf(this.provider, name);
  }

  /** Whether the provider below says the tool is always loaded (see `always-loaded.ts`). */
  [ALWAYS_LOADED](name: string): boolean {
    return isAlwaysLoaded(this.provider, name);
  }

  /** The tool's declaration as the provider below has it (see `tool-declaration.ts`). */
  [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    return declarationOf(this.provider, name);
  }

  private audit(call: LlmToolCall): void {
    const tool = call?.function?.name;
    const declaredKeys = typeof tool === 'string' ? this.declared.get(tool) : undefined;
    if (!declaredKeys || declaredKeys.length === 0) return;
    let args: unknown = call.function.arguments;
    if (typeof args === 'string') {
      try {
        args = args === '' ? {} : JSON.parse(args);
      } catch {
        return;
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return;
    const unknownKeys = Object.keys(args).filter(
      (key) => key !== REASON_PARAM && !declaredKeys.includes(key) && !this.reported.has(`${tool}\n${key}`),
    );
    if (unknownKeys.length === 0) return;
    for (const key of unknownKeys) this.reported.add(`${tool}\n${key}`);
    try {
      this.onWarn({ tool: tool as string, id: call.id, unknownKeys, declaredKeys: [...declaredKeys] });
    } catch {
      // An alarm whose listener fails still lets the call through untouched.
    }
  }
}
