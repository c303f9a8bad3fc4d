import { annotationsOf, type LlmTool, type LlmToolCall, readBack, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../tools/tool-names.js';
import { McpClientError } from '../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../protocol/types.js';
import { declarationOf, TOOL_DECLARATION } from '../tools/tool-declaration.js';
import { ALWAYS_LOADED, isAlwaysLoaded } from '../tools/always-loaded.js';

/** The parameter name the Reasons layer adds: read a call's reason back with it. */
export const REASON_PARAM = 'reason';

const REASON_SCHEMA = {
  type: 'string',
  description: 'Why you are making this call, in one sentence, for the person who reviews it.',
};

/**
 * Puts the "why" of every call on the record: every declaration gets an
 * optional `reason` string on the way out, and every call loses it on the way
 * in, so the model writes it where the model is looking (and a Policy above
 * sees it in the call), while the server never learns it exists.
 *
 * A tool that declares its own `reason` is left alone both ways; a tool this
 * layer has not augmented is never stripped (when in doubt, do not strip).
 * A reason is the model's claim about itself: show it beside the arguments,
 * never instead of them, and never let a machine rule read it.
 *
 * Its seat: below the Policy, above everything else:
 * `Policy( UnknownKeys( Reasons( Registry ) ) )`.
 */
export class Reasons implements ToolProvider {
  private readonly provider: ToolProvider;
  private readonly augmented = new Set<string>();
  private readonly names = new NameMapper();

  constructor(options: { provider: ToolProvider }) {
    if (typeof options?.provider?.executeToolCalls !== 'function') throw new McpClientError('option provider must be a tool provider');
    this.provider = options.provider;
  }

  /** The inner provider's tools with `reason` added, under portable names unless `options.names` says otherwise. */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    return this.names.show(await this.augment(), options.names);
  }

  /** Strips `reason` from each call (under its real name) and passes the batch on. */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    const read = await readBack(this.names, given, givenOptions, () => this.augment());
    if ('answers' in read) return read.answers;
    return this.provider.executeToolCalls(
      read.calls.map((call) => this.strip(call)),
      read.options,
    );
  }

  // The declarations under their real names, `reason` added; remembers which tools got it.
  private async augment(): Promise<LlmTool[]> {
    const tools = await this.provider.toolsForLlm({ names: 'real' });
    return tools.map((tool) => {
      const parameters = tool.function.parameters as { properties?: Record<string, unknown> };
      if (parameters.properties && REASON_PARAM in parameters.properties) {
        this.augmented.delete(tool.function.name);
        return tool;
      }
      this.augmented.add(tool.function.name);
      const properties = { ...parameters.properties, [REASON_PARAM]: REASON_SCHEMA };
      return { ...tool, function: { ...tool.function, parameters: { ...parameters, properties } } };
    });
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

  private strip(call: LlmToolCall): LlmToolCall {
    const name = call?.function?.name;
    if (typeof name !== 'string' || !this.augmented.has(name)) return call;
    let args: unknown = call.function.arguments;
    if (typeof args === 'string') {
      if (args === '') return call;
      try {
        args = JSON.parse(args);
      } catch {
        return call;
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args) || !(REASON_PARAM in args)) return call;
    const { [REASON_PARAM]: _reason, ...rest } = args as Record<string, unknown>;
    return { ...call, function: { ...call.function, arguments: rest } };
  }
}
