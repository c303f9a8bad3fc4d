import { annotationsOf, failure, type LlmTool, type LlmToolCall, parseCall, readBack, type ToolMessage, type ToolProvider, type ExecuteOptions } from '../../tools/bridge.js';
import { NameMapper, type ToolsForLlmOptions } from '../../tools/tool-names.js';
import type { InputRequest } from '../../protocol/input-request.js';
import { ASKED_UNDER, takesPrefix } from '../../client/questions/asking-server.js';
import { McpClientError } from '../../errors/mcp-client-error.js';
import type { Tool, ToolAnnotations } from '../../protocol/types.js';
import { declarationOf, TOOL_DECLARATION } from '../../tools/tool-declaration.js';
import { ALWAYS_LOADED, isAlwaysLoaded } from '../../tools/always-loaded.js';
import { refuseUnknown } from '../../util/refuse-unknown.js';
import { keysOf } from '../../util/option-keys.js';
import { validateGrant } from './grants.js';
import type { GrantsStore } from './grants-store.js';
import { commonDirectory, DEFAULT_LOCATION_KEYS, locationsOf, segments } from './paths.js';
import { type CallFacts, deniesOutright, type PolicyRule, strongest, validateRule } from './rules.js';
import { messageOf } from '../../util/values.js';
import { callerOf, type ToolCaller } from '../../tools/tool-visibility.js';
import { definitionOf, fingerprintOf } from '../pins/tool-fingerprint.js';

/** A question for the human about one tool call. */
export interface PermissionQuestion {
  kind: 'permission';
  /** The tool, as this policy sees it. */
  tool: string;
  /** The call's arguments, parsed. */
  arguments: Record<string, unknown>;
  /** A copy of the call as the model made it (object arguments as the JSON text they are sent as). */
  call: LlmToolCall;
  /** The rule that asked, or `undefined` when no rule matched the call. */
  rule: PolicyRule | undefined;
  /** The locations the call names, as absolute paths where they could be read. */
  locations: string[];
  /** The deepest directory containing everything the call touches, to offer as the grant's `under`. */
  suggestion: string | undefined;
  /** Who made the call: the model, or an MCP App's view (`ExecuteOptions.caller`). The rules do not read it; a human may. */
  caller: ToolCaller;
  /** The fingerprint of the tool's definition as the provider below declares it (see `Pins`), when it declares one; an "always" answer's grant holds only while it stays the same. */
  fingerprint?: string;
}

/** A server's elicitation, passed to the human through `elicitHook`. */
export interface ElicitationQuestion {
  kind: 'elicitation';
  method: string;
  params: Record<string, unknown>;
}

/** What `onAsk` is asked. */
export type PolicyQuestion = PermissionQuestion | ElicitationQuestion;

/** A rule as an answer gives it: the decision comes from the answer's action. */
export type GrantRule = Omit<PolicyRule, 'decision'>;

/** The human's answer to a permission question. `always-*` answers leave grants behind (`rule`, `rules`, or the suggestion). */
export interface PermissionAnswer {
  action: 'allow-once' | 'deny-once' | 'always-allow' | 'always-deny';
  rule?: GrantRule;
  rules?: GrantRule[];
}

/** Options of `Policy`. */
export interface PolicyOptions {
  /** The provider whose calls are judged. */
  provider: ToolProvider;
  /** The rules (see `Policy.defaultRules()`); validated at construction. */
  rules?: PolicyRule[];
  /** Tool-name prefix → the server's directory, to resolve relative locations against. */
  roots?: Record<string, string>;
  /** Asks the human: a permission question (answer a `PermissionAnswer`) or a forwarded elicitation (answer an `ElicitResult`). */
  onAsk?: (question: PolicyQuestion) => unknown;
  /** Told the whole effective grant set (a copy) whenever an answer adds to it. */
  onGrant?: (grants: PolicyRule[]) => void;
  /** Grants from an earlier session (plain data from `grants`). */
  grants?: PolicyRule[];
  /** A grant book shared with other policies (`Grants` in one process, `RedisGrants` across processes); "always" answers are written there. */
  grantsStore?: GrantsStore;
  /**
   * The words that name a location in an argument's key, matched against the
   * whole key or a word at its end (`filePath`, `source_dir`; see `keyNames`), at any depth.
   * Default: path, file, filename, dir, directory, folder, cwd, workdir,
   * root, source, src, destination, dest, target, from, to, location,
   * output, outfile, outdir, fullpath, pathname, and plurals. Under any other
   * key, a string that reads as a path is a location too (see docs/policy.md).
   */
  locationKeys?: string[];
  /** Compare paths case-folded, for servers whose filesystem ignores case (Windows, macOS by default). Default false. */
  caseInsensitivePaths?: boolean;
}

const OPTION_KEYS = keysOf<PolicyOptions>({
  provider: true,
  rules: true,
  roots: true,
  onAsk: true,
  onGrant: true,
  grants: true,
  grantsStore: true,
  locationKeys: true,
  caseInsensitivePaths: true,
});
const ACTIONS = ['allow-once', 'deny-once', 'always-allow', 'always-deny'];

type Verdict = { allow: true } | { allow: false; reason: string };

/**
 * Permissions for tool calls, client-side: reads go through, what changes the
 * world stops at a question, and a human's "always" is remembered.
 *
 * A `ToolProvider` over any provider. Every matching rule is weighed and the
 * strongest decision wins (deny, then ask, then allow); a call no rule
 * matched is asked about. Rules with `severity: 'danger'` are asked every
 * time. Grants (from "always" answers) are consulted only when the rules said
 * ask. Without `onAsk`, an ask is an `is_error` answer saying there was
 * nobody to ask.
 *
 * @example
 * ```ts
 * const policy = new Policy({
 *   provider: registry,
 *   rules: [...Policy.defaultRules(), { tool: 'fs_write_file', decision: 'allow', under: 'scratch' }],
 *   roots: { fs: '/srv/work' },
 *   onAsk: (question) => askTheUser(question),
 * });
 * ```
 */
export class Policy implements ToolProvider {
  /**
   * Rules to start from. Reads are allowed: a read is a tool its server
   * annotates `readOnlyHint`, counted only for a server the user trusts
   * (`trustAnnotations`) or a `Toolkit`'s own tool; any other server's
   * tools are asked about like the rest. Well-known destructive commands, in any tool that runs a
   * program, are on the danger floor. There is deliberately no catch-all
   * ask: a call no rule matches is asked about anyway, and an explicit
   * `{ tool: '*', decision: 'ask' }` would keep every grant from applying.
   */
  static defaultRules(): PolicyRule[] {
    const danger = (check: string, note: string): PolicyRule => ({ tool: '*', decision: 'ask', check, severity: 'danger', note });
    return [
      { tool: '*', decision: 'allow', readOnly: true, note: 'reads: tools a trusted server annotates readOnlyHint' },
      danger('rm-recursive', 'recursive deletion'),
      danger('git-force-push', 'force pushes rewrite shared history'),
      danger('git-reset-hard', 'a hard reset throws away uncommitted work'),
      danger('disk-destroy', 'disk-level writes cannot be undone'),
      danger('privileged', 'runs with elevated privileges'),
    ];
  }

  private readonly provider: ToolProvider;
  private readonly rules: PolicyRule[];
  private readonly roots: Array<[string, string]>;
  private readonly onAsk: PolicyOptions['onAsk'];
  private readonly onGrant: PolicyOptions['onGrant'];
  private readonly own: PolicyRule[];
  private readonly store: GrantsStore | undefined;
  private readonly locationKeys: readonly string[];
  private readonly caseInsensitivePaths: boolean;
  private asking: Promise<unknown> = Promise.resolve();
  private readonly names = new NameMapper();

  /** @throws McpClientError for an unknown option or an invalid rule or grant, naming it. */
  constructor(options: PolicyOptions) {
    refuseUnknown(options, OPTION_KEYS);
    if (typeof options.provider?.executeToolCalls !== 'function') throw new McpClientError('option provider must be a tool provider');
    this.provider = options.provider;
    this.rules = (options.rules ?? []).map((rule, i) => validateRule(rule, `rule ${i}`));
    this.roots = Object.entries(options.roots ?? {}).sort(([a], [b]) => b.length - a.length);
    this.onAsk = options.onAsk;
    this.onGrant = options.onGrant;
    this.own = (options.grants ?? []).map(validateGrant);
    if (options.grantsStore !== undefined && !(typeof options.grantsStore?.current === 'function' && typeof options.grantsStore.add === 'function')) {
      throw new McpClientError('option grantsStore must be a grant book (Grants, RedisGrants)');
    }
    this.store = options.grantsStore;
    this.locationKeys = options.locationKeys ?? DEFAULT_LOCATION_KEYS;
    if (options.caseInsensitivePaths !== undefined && typeof options.caseInsensitivePaths !== 'boolean') {
      throw new McpClientError('option caseInsensitivePaths must be true or false');
    }
    this.caseInsensitivePaths = options.caseInsensitivePaths ?? false;
  }

  /** Whether there is somebody to ask (`onAsk` is set). Wire a server's elicitation to `elicitHook` only then. */
  get interactive(): boolean {
    return this.onAsk !== undefined;
  }

  /** The effective grants, a copy: this policy's own, then the shared book's. Plain data to persist. */
  get grants(): PolicyRule[] {
    return [...this.own.map((grant) => ({ ...grant })), ...(this.store?.grants ?? [])];
  }

  /**
   * An `onElicit` hook that puts a server's question to the human through
   * `onAsk`, one question at a time with the permission questions. Headless,
   * it declines.
   */
  readonly elicitHook = (request: InputRequest): Promise<unknown> => {
    const onAsk = this.onAsk;
    if (!onAsk) return Promise.resolve({ action: 'decline' });
    return this.serially(() => onAsk({ kind: 'elicitation', method: request.method, params: request.params }));
  };

  /** What the inner provider says about a tool (so annotations flow through a stack of layers). */
  toolAnnotations(name: string): Promise<ToolAnnotations | undefined> {
    return annotationsOf(this.provider, name);
  }

  /** Passes a registry's prefix on to the provider it guards, whose servers' questions carry it. */
  [ASKED_UNDER](prefix: string | undefined, separator: string): void {
    if (takesPrefix(this.provider)) this.provider[ASKED_UNDER](prefix, separator);
  }

  /** Whether the provider below says the tool is always loaded (see `always-loaded.ts`). */
  [ALWAYS_LOADED](name: string): boolean {
    return isAlwaysLoaded(this.provider, name);
  }

  /** The tool's declaration as the provider below has it (see `tool-declaration.ts`). */
  [TOOL_DECLARATION](name: string): Promise<Tool | undefined> {
    return declarationOf(this.provider, name);
  }

  /**
   * The inner provider's tools, without those a rule denies whatever the
   * call. Rules read the real names; the names are made portable over the
   * whole inner list before any is left out, so a call under the shown name
   * of a tool left out is still read back to its real name and denied.
   *
   * @throws McpClientError (as a rejection) for an invalid `options.names`.
   */
  async toolsForLlm(options: ToolsForLlmOptions = {}): Promise<LlmTool[]> {
    const tools = await this.provider.toolsForLlm({ names: 'real' });
    const shown = this.names.show(tools, options.names);
    return shown.filter((_tool, n) => !this.rules.some((rule) => deniesOutright(rule, (tools[n] as LlmTool).function.name)));
  }

  /**
   * Decides every call in order (asking as needed), forwards the allowed
   * ones to the inner provider as one batch, and answers the others with
   * `is_error` results that say why. Arguments given as an object are
   * judged and forwarded as the JSON text they serialise to. Calls under
   * shown names are read back to the real names first, so rules, questions
   * and denials all name the real tool. A view's calls (`caller: 'app'`)
   * are judged by the same rules as the model's, and a question about one
   * says who asked (`caller`). Never rejects.
   */
  async executeToolCalls(given: LlmToolCall[], givenOptions: ExecuteOptions = {}): Promise<ToolMessage[]> {
    // Each call is read once, as sent, before anything looks at its name:
    // reading it back must not give a getter a second chance to change it.
    const unreadable = new Map<number, string>();
    const sent = given.map((call, index) => {
      try {
        return asSent(call);
      } catch (error) {
        unreadable.set(index, messageOf(error));
        return null as unknown as LlmToolCall;
      }
    });
    let caller: ToolCaller;
    try {
      caller = callerOf(givenOptions);
    } catch (error) {
      return given.map((call) => failure(typeof call?.id === 'string' ? call.id : '', messageOf(error)));
    }
    const read = await readBack(this.names, sent, givenOptions, () => this.provider.toolsForLlm({ names: 'real' }));
    if ('answers' in read) return read.answers;
    const { calls, options } = read;
    const answers: ToolMessage[] = new Array(calls.length);
    const allowed: Array<{ index: number; call: LlmToolCall }> = [];
    for (const [index, call] of calls.entries()) {
      let verdict: Verdict;
      const broken = unreadable.get(index);
      if (broken !== undefined) {
        verdict = { allow: false, reason: `Permission could not be decided: ${broken}` };
      } else {
        try {
          verdict = await this.decide(call, caller);
        } catch (error) {
          verdict = { allow: false, reason: `Permission could not be decided: ${messageOf(error)}` };
        }
      }
      if (verdict.allow) {
        allowed.push({ index, call });
      } else {
        const id = (broken === undefined ? call : given[index])?.id;
        answers[index] = failure(typeof id === 'string' ? id : '', verdict.reason);
      }
    }
    if (allowed.length > 0) {
      let results: ToolMessage[];
      try {
        results = await this.provider.executeToolCalls(allowed.map(({ call }) => call), options);
      } catch (error) {
        results = allowed.map(({ call }) => failure(call.id, messageOf(error)));
      }
      allowed.forEach(({ index, call }, n) => (answers[index] = results[n] ?? failure(call.id, 'no answer for this call')));
    }
    return answers;
  }

  private async decide(call: LlmToolCall, caller: ToolCaller): Promise<Verdict> {
    const parsed = parseCall(call);
    if ('error' in parsed) return { allow: false, reason: parsed.error };
    const { name, args } = parsed;
    const facts: CallFacts = {
      tool: name,
      args,
      root: this.rootFor(name),
      locationKeys: this.locationKeys,
      caseInsensitivePaths: this.caseInsensitivePaths,
      readOnly: await this.readOnly(name),
    };
    const verdict = strongest(this.rules, facts);
    if (verdict?.decision === 'allow') return { allow: true };
    if (verdict?.decision === 'deny') return { allow: false, reason: `Denied by policy${describe(verdict.rules[0])}` };
    const danger = verdict?.rules.some((rule) => rule.severity === 'danger') ?? false;
    let unread = '';
    facts.fingerprint = await this.fingerprintOf(name);
    if (!danger) {
      // A book that cannot be read fails closed: its grants neither allow nor
      // deny, this policy's own can still deny, and the human is asked.
      const book = await this.book();
      if (book instanceof Error) unread = `; the shared grants could not be read (${book.message})`;
      const granted = strongest(book instanceof Error ? this.own : [...this.own, ...book], facts);
      if (granted?.decision === 'allow' && !unread) return { allow: true };
      if (granted?.decision === 'deny') return { allow: false, reason: `Denied by an earlier answer${describe(granted.rules[0])}` };
    }
    const onAsk = this.onAsk;
    if (!onAsk) return { allow: false, reason: `${name} needs permission${describe(verdict?.rules[0])}, and there is nobody to ask${unread}` };
    const locations = locationsOf(args, this.locationKeys);
    const question: PermissionQuestion = {
      kind: 'permission',
      tool: name,
      arguments: args,
      call: structuredClone(call),
      // A danger rule, when one fired, is the one shown (and the one a gateway reads to keep no grant for the question).
      rule: verdict?.rules.find((rule) => rule.severity === 'danger') ?? verdict?.rules[0],
      locations: locations
        .map((location) => segments(location, facts.root, this.caseInsensitivePaths))
        .filter((parts) => parts !== undefined)
        .map((parts) => `/${parts.join('/')}`),
      suggestion: locations.length > 0 ? commonDirectory(locations, facts.root, this.caseInsensitivePaths) : undefined,
      caller,
      ...(facts.fingerprint === undefined ? {} : { fingerprint: facts.fingerprint }),
    };
    return this.serially(async () => this.apply(await onAsk(question), question, danger));
  }

  // This policy's view of the shared book for one decision, or why it has none.
  private async book(): Promise<PolicyRule[] | Error> {
    if (!this.store) return [];
    try {
      return await this.store.current();
    } catch (error) {
      return error instanceof Error ? error : new Error(messageOf(error));
    }
  }

  // Turns an answer into a verdict, leaving grants behind for "always".
  private async apply(answer: unknown, question: PermissionQuestion, danger: boolean): Promise<Verdict> {
    const { action, rule, rules } = (answer ?? {}) as Partial<PermissionAnswer>;
    if (!ACTIONS.includes(action as string)) return { allow: false, reason: `The answer for ${question.tool} was not understood` };
    const allow = action === 'allow-once' || action === 'always-allow';
    const denied: Verdict = { allow: false, reason: `Denied by the user${question.rule?.note ? `: ${question.rule.note}` : ''}` };
    if (action === 'allow-once' || action === 'deny-once' || danger) return allow ? { allow: true } : denied;
    // Without a suggestion, the default grant is the whole tool: right for a
    // call that names no location, but for one whose locations could not be
    // read it would allow what nobody was shown. That call alone goes ahead.
    if (allow && !rules && !rule && !question.suggestion && locationsOf(question.arguments, this.locationKeys).length > 0) return { allow: true };
    const given = rules ?? (rule ? [rule] : [{ tool: question.tool, ...(question.suggestion ? { under: question.suggestion } : {}) }]);
    let grants: PolicyRule[];
    try {
      if (!Array.isArray(given) || given.length === 0) throw new McpClientError('the answer names no rule');
      // A grant for this one tool holds for the definition it was made under only.
      const pinned = (grant: GrantRule): GrantRule =>
        question.fingerprint !== undefined && grant?.tool === question.tool && grant.fingerprint === undefined ? { ...grant, fingerprint: question.fingerprint } : grant;
      grants = given.map((grant) => validateGrant({ ...pinned(grant), decision: allow ? 'allow' : 'deny' }));
    } catch (error) {
      return { allow: false, reason: `The answer's rules could not be used, so nothing was remembered: ${messageOf(error)}` };
    }
    if (this.store) {
      try {
        await this.store.add(grants);
      } catch {
        // Not remembered, so nobody is told of a grant: the answer still
        // decides this one call, as the human meant at the least.
        return allow ? { allow: true } : denied;
      }
    } else {
      this.own.push(...grants);
    }
    try {
      this.onGrant?.(this.grants);
    } catch {
      // The grant is made; a listener that fails is no reason to refuse the call.
    }
    return allow ? { allow: true } : denied;
  }

  // One question at a time, across permission questions and elicitations.
  private serially<T>(ask: () => T | Promise<T>): Promise<T> {
    const turn = this.asking.then(ask);
    this.asking = turn.catch(() => undefined);
    return turn;
  }

  // The fingerprint of the tool's declaration, as Pins takes it; undefined for a provider that declares none.
  private async fingerprintOf(tool: string): Promise<string | undefined> {
    const declaration = await declarationOf(this.provider, tool);
    if (!declaration) return undefined;
    try {
      return (await fingerprintOf(definitionOf(tool, declaration, undefined, undefined))).fingerprint;
    } catch {
      return undefined;
    }
  }

  private rootFor(tool: string): string | undefined {
    return this.roots.find(([prefix]) => tool.startsWith(prefix))?.[1];
  }

  private async readOnly(tool: string): Promise<boolean | undefined> {
    if (typeof (this.provider as { toolAnnotations?: unknown }).toolAnnotations !== 'function') return undefined;
    return (await annotationsOf(this.provider, tool))?.readOnlyHint === true;
  }
}

// The call as plain data, each part read once, with object arguments as the
// JSON text they will be sent as: an object can serialise to something else
// than its own keys show (a toJSON method), and a getter can answer the
// rules one thing and the provider another. The rules judge what is sent.
function asSent(call: LlmToolCall): LlmToolCall {
  const fn = (call as Partial<LlmToolCall> | null)?.function;
  if (typeof fn !== 'object' || fn === null) return call;
  const copy = { ...fn };
  if (typeof copy.arguments === 'object' && copy.arguments !== null) copy.arguments = JSON.stringify(copy.arguments) ?? '';
  return { ...call, function: copy };
}

function describe(rule: PolicyRule | undefined): string {
  if (!rule) return '';
  return rule.note ? `: ${rule.note}` : ` (rule for ${rule.tool})`;
}

