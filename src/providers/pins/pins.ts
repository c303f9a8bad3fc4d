import { firstValueFrom } from 'rxjs';
import { annotationsOf, failure, type ExecuteOptions, type LlmTool, type LlmToolCall, readBack, type ToolMessage, type ToolProvider } from '../../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../../tools/tool-names.js';
import { ASKED_UNDER, takesPrefix } from '../../client/questions/asking-server.js';
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../../protocol/types.js';
import { declarationOf, TOOL_DECLARATION } from '../../tools/tool-declaration.js';
import { ALWAYS_LOADED, isAlwaysLoaded } from '../../tools/always-loaded.js';
import { keysOf } from '../../util/option-keys.js';
import { observableOf } from '../../util/observable-of.js';
import { refuseUnknown } from '../../util/refuse-unknown.js';
import { messageOf } from '../../util/values.js';
import { warnHook } from '../../util/warn-hook.js';
import { lineDiff } from './pin-diff.js';
import { MemoryPins, type Pin, type PinsStore } from './pins-store.js';
import { definitionOf, type Fingerprinted, fingerprintOf, type PinnedDefinition } from './tool-fingerprint.js';

/** What `onDrift` is asked: a tool whose definition is not the one pinned. */
export interface DriftQuestion {
  /** The tool's key: its real name in the provider `Pins` wraps. */
  tool: string;
  /** The pinned definition. */
  before: PinnedDefinition;
  /** The definition the server gives now. */
  after: PinnedDefinition;
  /** A line diff of the two as canonical JSON (`- ` removed, `+ ` added; invisible characters written as `\u{…}`), bounded. */
  diff: string;
}

/** Options of `Pins`. */
export interface PinsOptions {
  /** The provider whose tools are pinned: put `Pins` right over the `Registry` (or client), below every other layer. */
  provider: ToolProvider;
  /** Where pins are kept; default: this process's memory. `FilePins` (`rxmcp/node`) and `RedisPins` (`rxmcp/redis`) keep them longer. */
  store?: PinsStore;
  /** Asked once per distinct change whether a changed tool may be used; answers `true` to approve (a value, a Promise or an Observable). Without it, changed tools stay hidden. */
  onDrift?: (question: DriftQuestion) => unknown;
  /** Told, one line each, why a tool is hidden (a change nobody could approve, a store that cannot be read, a definition that cannot be pinned). */
  onWarn?: (message: string) => void;
}

/** How a tool stands against its pin. */
export type PinStatus =
  /** Its definition is the pinned one. */
  | 'pinned'
  /** Seen for the first time, and pinned now (or, with `dryRun`, would be). */
  | 'new'
  /** Its definition is not the pinned one, and the change is not approved. */
  | 'drifted'
  /** It could not be checked: the store could not be read or written, or its pin does not match itself. */
  | 'unchecked'
  /** Its definition cannot be pinned (too large, or not JSON). */
  | 'unpinnable';

/** What `check` says of one tool. Only `pinned` and `new` tools are shown and callable. */
export interface PinReport {
  tool: string;
  status: PinStatus;
  /** The fingerprint of the definition given now, when it has one. */
  fingerprint?: string;
  /** The pin held, when one was read. */
  pin?: Pin;
  /** For `drifted`: the line diff from the pin to the definition given now. */
  diff?: string;
  /** For `unchecked` and `unpinnable`: why. */
  reason?: string;
}

const OPTION_KEYS = keysOf<PinsOptions>({ provider: true, store: true, onDrift: true, onWarn: true });
/** The most distinct changes of one tool asked about in one process: a server that changes a tool on every listing is not a prompt storm. */
const MAX_QUESTIONS_PER_TOOL = 8;
/** The most tools whose questions are remembered. */
const MAX_TOOLS_ASKED = 10_000;

/**
 * Pins each tool's definition the first time it is seen, and keeps a tool
 * whose definition has since changed away from the model until a human
 * approves the change: a "rug pull" (a harmless tool that later asks the
 * model for your keys, or grows a `webhook_url`) does not ride on the trust
 * given to what was first seen.
 *
 * A provider layer. Each listing fingerprints every tool's definition (see
 * `PinnedDefinition`; SHA-256 of exact canonical JSON) and compares it with
 * the pin held for the tool's key, its real name in the provider below (a
 * registry's prefix and the server's name). A new tool is pinned and shown.
 * A changed one is left out of the listing and its calls are refused, until
 * `onDrift`, asked during the listing that first sees the change (the
 * listing waits for the answer; one question at a time), answers `true`:
 * then the new definition is pinned and the tool shown. A declined change
 * is not asked about again. Whatever cannot be checked is hidden (fail closed).
 *
 * Put it right over the registry: `Policy(Reasons(Pins(registry)))`.
 * `Policy` makes the grants of "always" answers for one tool under that
 * tool's fingerprint, so they lapse when its definition changes.
 *
 * @example
 * ```ts
 * const pins = new Pins({ provider: registry, store: new FilePins({ path: 'pins.json' }), onDrift: ({ tool, diff }) => confirm(`${tool} changed:\n${diff}`) });
 * const policy = new Policy({ provider: pins, rules: Policy.defaultRules(), onAsk });
 * ```
 */
export class Pins implements ToolProvider {
  private readonly provider: ToolProvider;
  private readonly store: PinsStore;
  private readonly onDrift: PinsOptions['onDrift'];
  private readonly warn: (message: string) => void;
  private readonly names = new NameMapper();
  // Per tool key, each distinct change (pinned fingerprint → given one) and its answer.
  private readonly asked = new Map<string, Map<string, Promise<boolean>>>();
  private readonly warned = new Set<string>();
  private asking: Promise<unknown> = Promise.resolve();

  /** @throws McpClientError for an unknown option, or a provider or store that is not one. */
  constructor(options: PinsOptions) {
    refuseUnknown(options ?? {}, OPTION_KEYS);
    if (typeof options?.provider?.executeToolCalls !== 'function') throw new McpClientError('option provider must be a tool provider');
    if (options.store !== undefined && !(typeof options.store?.read === 'function' && typeof options.store.write === 'function')) {
      throw new McpClientError('option store must be a pins store (FilePins, RedisPins)');
    }
    if (options.onDrift !== undefined && typeof options.onDrift !== 'function') throw new McpClientError('option onDrift must be a function');
    this.provider = options.provider;
    this.store = options.store ?? new MemoryPins();
    this.onDrift = options.onDrift;
    this.warn = warnHook(options.onWarn);
  }

  /**
   * The provider's tools whose definitions are pinned: new ones are pinned
   * now, changed ones asked about (awaiting the answer) and left out unless
   * approved. Names are made portable over the whole list before any is left out.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const tools = await this.provider.toolsForLlm({ names: 'real' });
    const shown = this.names.show(tools, options.names);
    const reports = await this.review(tools, false);
    return shown.filter((_tool, n) => usable(reports[n]));
  }

  /**
   * Runs the calls of tools whose definitions are pinned; a call of a tool
   * that changed (approved or not: nobody is asked here), could not be
   * checked, or is not in the provider's listing is answered with an
   * `is_error` result saying so. Never rejects.
   */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    const read = await readBack(this.names, given, givenOptions, () => this.provider.toolsForLlm({ names: 'real' }));
    if ('answers' in read) return read.answers;
    const { calls, options } = read;
    let verdicts: Map<string, string | undefined>;
    try {
      verdicts = await this.verdicts(calls);
    } catch (error) {
      return calls.map((call) => failure(call?.id, `The tool's definition could not be checked against its pin: ${messageOf(error)}`));
    }
    const answers: ToolMessage[] = new Array(calls.length);
    const allowed: Array<{ index: number; call: LlmToolCall }> = [];
    calls.forEach((call, index) => {
      const refusal = verdicts.get(call?.function?.name);
      if (refusal === undefined) allowed.push({ index, call });
      else answers[index] = failure(call.id, refusal);
    });
    if (allowed.length > 0) {
      let results: ToolMessage[];
      try {
        results = await this.provider.executeToolCalls(
          allowed.map(({ call }) => call),
          options,
        );
      } catch (error) {
        results = allowed.map(({ call }) => failure(call.id, messageOf(error)));
      }
      allowed.forEach(({ index, call }, n) => (answers[index] = results[n] ?? failure(call.id, 'no answer for this call')));
    }
    return answers;
  }

  /**
   * Checks tool definitions against their pins as a listing does, for tools
   * listed some other way (a stored catalogue, a server started later): each
   * tool's `name` is its key (its real name, prefixed as the registry shows
   * it). Pins new tools and asks `onDrift` about changes, unless `dryRun`.
   * Only `pinned` and `new` tools may be shown. `options.dryRun`: only
   * report, pinning nothing and asking nobody (default false).
   */
  async check(tools: readonly Tool[], options: { dryRun?: boolean } = {}): Promise<PinReport[]> {
    const entries = await Promise.all(tools.map((tool) => this.fingerprinted(definitionOf(tool.name, tool, undefined, undefined))));
    return this.judge(
      tools.map((tool) => tool.name),
      entries,
      options.dryRun === true,
    );
  }

  /** What the provider below says about a tool. */
  toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    return annotationsOf(this.provider, name);
  }

  /** Passes a registry's prefix on to the provider it guards. */
  [ASKED_UNDER](prefix: string | undefined, separator: string): void {
    if (takesPrefix(this.provider)) this.provider[ASKED_UNDER](prefix, separator);
  }

  /** The tool's declaration as the provider below has it (see `tool-declaration.ts`). */
  [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    return declarationOf(this.provider, name);
  }

  /** Whether the provider below says the tool is always loaded (see `always-loaded.ts`). */
  [ALWAYS_LOADED](name: string): boolean {
    return isAlwaysLoaded(this.provider, name);
  }

  // Why each called tool is refused (undefined: it may run). Nobody is asked here.
  private async verdicts(calls: LlmToolCall[]): Promise<Map<string, string | undefined>> {
    const tools = await this.provider.toolsForLlm({ names: 'real' });
    const byName = new Map(tools.map((tool) => [tool.function.name, tool]));
    const called = [...new Set(calls.map((call) => call?.function?.name).filter((name): name is string => typeof name === 'string'))];
    const listed = called.filter((name) => byName.has(name));
    const reports = await this.review(
      listed.map((name) => byName.get(name) as LlmTool),
      true,
    );
    const verdicts = new Map<string, string | undefined>();
    // Worded as the bridge words it: to the model, a tool nobody lists does not exist.
    for (const name of called) verdicts.set(name, `Unknown tool: ${name}`);
    listed.forEach((name, n) => verdicts.set(name, refusalOf(reports[n] as PinReport)));
    return verdicts;
  }

  // The listing's tools judged against their pins (`calling`: nobody is asked).
  private async review(tools: readonly LlmTool[], calling: boolean): Promise<PinReport[]> {
    const entries = await Promise.all(tools.map((tool) => this.entryOf(tool)));
    return this.judge(
      tools.map((tool) => tool.function.name),
      entries,
      false,
      calling,
    );
  }

  private async entryOf(tool: LlmTool): Promise<Fingerprinted | Error> {
    const name = tool.function.name;
    const declaration = await declarationOf(this.provider, name);
    const annotations = declaration ? undefined : await annotationsOf(this.provider, name).catch(() => undefined);
    return this.fingerprinted(definitionOf(name, declaration, tool, annotations));
  }

  private async fingerprinted(definition: PinnedDefinition): Promise<Fingerprinted | Error> {
    try {
      return await fingerprintOf(definition);
    } catch (error) {
      return error instanceof Error ? error : new Error(messageOf(error));
    }
  }

  private async judge(keys: string[], entries: Array<Fingerprinted | Error>, dryRun: boolean, calling = false): Promise<PinReport[]> {
    let held: Map<string, Pin>;
    try {
      held = await this.store.read(keys);
    } catch (error) {
      return keys.map((tool) => this.unchecked(tool, `the pins could not be read (${messageOf(error)})`));
    }
    const fresh: Pin[] = [];
    const now = new Date().toISOString();
    keys.forEach((tool, n) => {
      const entry = entries[n] as Fingerprinted | Error;
      if (!(entry instanceof Error) && !held.has(tool)) fresh.push({ tool, fingerprint: entry.fingerprint, definition: entry.definition, pinnedAt: now });
    });
    // The new pins not kept, and why: the tools pinned already still stand
    // on their pins, so a server whose tools the store refuses (more than it
    // may hold, say) cannot hide every other server's.
    let unwritten: string | undefined;
    if (fresh.length > 0 && !dryRun) {
      try {
        await this.store.write(fresh, { replace: false });
        // Another process may have pinned some first: what is held decides.
        held = await this.store.read(keys);
      } catch (error) {
        unwritten = `the pins could not be written (${messageOf(error)})`;
      }
    }
    const newly = new Set(fresh.map((pin) => pin.tool));
    if (unwritten !== undefined) {
      const reason = unwritten;
      return Promise.all(keys.map((tool, n) => (newly.has(tool) ? this.unchecked(tool, reason) : this.judged(tool, entries[n] as Fingerprinted | Error, held, newly, dryRun, calling))));
    }
    return Promise.all(keys.map((tool, n) => this.judged(tool, entries[n] as Fingerprinted | Error, held, newly, dryRun, calling)));
  }

  // One tool against the pin held for it.
  private async judged(tool: string, entry: Fingerprinted | Error, held: Map<string, Pin>, newly: Set<string>, dryRun: boolean, calling: boolean): Promise<PinReport> {
    if (entry instanceof Error) {
      this.warnOnce(`unpinnable\n${tool}`, `Pins: ${JSON.stringify(tool)} is hidden: its definition cannot be pinned (${entry.message})`);
      return { tool, status: 'unpinnable', reason: entry.message };
    }
    const pin = held.get(tool);
    if (!pin) return dryRun ? { tool, status: 'new', fingerprint: entry.fingerprint } : this.unchecked(tool, 'its pin was not kept');
    if (pin.fingerprint === entry.fingerprint) return { tool, status: newly.has(tool) ? 'new' : 'pinned', fingerprint: entry.fingerprint, pin };
    return this.drifted(tool, entry, pin, dryRun || calling);
  }

  private async drifted(tool: string, entry: Fingerprinted, pin: Pin, quiet: boolean): Promise<PinReport> {
    let before: Fingerprinted;
    try {
      before = await fingerprintOf(pin.definition);
    } catch (error) {
      return this.unchecked(tool, `its pin cannot be read (${messageOf(error)})`);
    }
    // A pin whose definition is not what its fingerprint says was edited by hand or damaged: nothing to show a human.
    if (before.fingerprint !== pin.fingerprint) return this.unchecked(tool, 'its pin does not match its own definition (edited by hand?)');
    const diff = lineDiff(before.text, entry.text);
    const report: PinReport = { tool, status: 'drifted', fingerprint: entry.fingerprint, pin, diff };
    if (quiet) return report;
    const approved = await this.answer(tool, { tool, before: pin.definition, after: entry.definition, diff }, `${pin.fingerprint}>${entry.fingerprint}`);
    if (!approved) return report;
    const repinned: Pin = { tool, fingerprint: entry.fingerprint, definition: entry.definition, pinnedAt: new Date().toISOString() };
    try {
      await this.store.write([repinned], { replace: true });
    } catch (error) {
      return this.unchecked(tool, `its approved definition could not be pinned (${messageOf(error)})`);
    }
    return { tool, status: 'pinned', fingerprint: entry.fingerprint, pin: repinned };
  }

  // The answer to one distinct change: asked once (one question at a time), remembered.
  private answer(tool: string, question: DriftQuestion, change: string): Promise<boolean> {
    const onDrift = this.onDrift;
    if (!onDrift) {
      this.warnOnce(`drift\n${tool}\n${change}`, `Pins: ${JSON.stringify(tool)} is hidden: its definition changed since it was pinned, and there is nobody to approve the change (onDrift)`);
      return Promise.resolve(false);
    }
    let changes = this.asked.get(tool);
    const known = changes?.get(change);
    if (known) return known;
    if (!changes) {
      if (this.asked.size >= MAX_TOOLS_ASKED) this.asked.delete(this.asked.keys().next().value as string);
      this.asked.set(tool, (changes = new Map()));
    }
    if (changes.size >= MAX_QUESTIONS_PER_TOOL) {
      this.warnOnce(`storm\n${tool}`, `Pins: ${JSON.stringify(tool)} is hidden: its definition changed ${MAX_QUESTIONS_PER_TOOL} times in this session, and it is no longer asked about`);
      return Promise.resolve(false);
    }
    const turn = this.asking.then(async () => (await firstValueFrom(observableOf(onDrift(structuredClone(question))), { defaultValue: false })) === true);
    const answered = turn.catch((error: unknown) => {
      this.warn(`Pins: the question about ${JSON.stringify(tool)} failed (${messageOf(error)}); it stays hidden`);
      return false;
    });
    this.asking = answered;
    changes.set(change, answered);
    return answered;
  }

  private unchecked(tool: string, reason: string): PinReport {
    this.warnOnce(`unchecked\n${tool}\n${reason}`, `Pins: ${JSON.stringify(tool)} is hidden: ${reason}`);
    return { tool, status: 'unchecked', reason };
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    if (this.warned.size >= MAX_TOOLS_ASKED) this.warned.clear();
    this.warned.add(key);
    this.warn(message);
  }
}

function usable(report: PinReport | undefined): boolean {
  return report?.status === 'pinned' || report?.status === 'new';
}

function refusalOf(report: PinReport): string | undefined {
  const name = JSON.stringify(report.tool);
  switch (report.status) {
    case 'pinned':
    case 'new':
      return undefined;
    case 'drifted':
      return `Tool ${name} is refused: its definition changed since it was pinned, and the change has not been approved`;
    case 'unpinnable':
      return `Tool ${name} is refused: its definition cannot be pinned (${report.reason ?? 'unknown'})`;
    default:
      return `Tool ${name} is refused: its definition could not be checked against its pin (${report.reason ?? 'unknown'})`;
  }
}
