import { McpClientError } from '../errors/mcp-client-error.js';

/**
 * What a tool name shown to a model may look like. Every rule allows ASCII
 * letters, digits and `_`; the rest is chosen here. The default,
 * {@link PORTABLE_TOOL_NAMES}, is what OpenAI, Anthropic, Bedrock and Gemini
 * all accept: `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`.
 */
export interface ToolNameRule {
  /** The longest name, 16 to 1024 characters (default 64). */
  maxLength?: number;
  /** ASCII punctuation allowed besides `_`, as one string (default `-`; `''` for none, `'-.'` to allow dots too). */
  punctuation?: string;
  /** Whether a name must start with a letter or `_`, as Gemini requires (default true). */
  letterFirst?: boolean;
}

/** Which names a list of tools or a batch of calls is in: the real ones, or those a rule makes. */
export type ToolNames = 'real' | ToolNameRule;

/** What `toolsForLlm` may be told. */
export interface ToolsForLlmOptions {
  /**
   * The names to show: portable under the default rule when left out, under
   * the given rule, or the providers' own (`'real'`, what a layer asks of
   * the provider it wraps).
   */
  names?: ToolNames;
}

/** The default rule: names every major model API accepts. */
export const PORTABLE_TOOL_NAMES: Readonly<Required<ToolNameRule>> = Object.freeze({ maxLength: 64, punctuation: '-', letterFirst: true });

// A hash suffix: `_` and 8 base-32 digits (40 bits of the full name).
const HASH_LENGTH = 8;
const SUFFIX = /_[0-9a-v]{8}$/;

interface CompiledRule {
  maxLength: number;
  letterFirst: boolean;
  /** Indexed by char code below 128: may the character appear in a name. */
  allowed: Uint8Array;
}

const compiled = new WeakMap<object, CompiledRule>();
const DEFAULT_RULE = compile(PORTABLE_TOOL_NAMES);

/**
 * The rule a `names` option stands for, checked and compiled once per rule
 * object; `undefined` for real names.
 *
 * @throws McpClientError for a value that is not `'real'` or a valid rule.
 */
function ruleOf(names: unknown): CompiledRule | undefined {
  if (names === undefined) return DEFAULT_RULE;
  if (names === 'real') return undefined;
  if (typeof names !== 'object' || names === null) throw new McpClientError(`option names must be 'real' or a name rule, not ${JSON.stringify(String(names))}`);
  let rule = compiled.get(names);
  if (!rule) {
    rule = compile(names as ToolNameRule);
    compiled.set(names, rule);
  }
  return rule;
}

function compile(rule: ToolNameRule): CompiledRule {
  const { maxLength = 64, punctuation = '-', letterFirst = true } = rule;
  if (!Number.isInteger(maxLength) || maxLength < 16 || maxLength > 1024) throw new McpClientError('name rule: maxLength must be a whole number from 16 to 1024');
  if (typeof letterFirst !== 'boolean') throw new McpClientError('name rule: letterFirst must be true or false');
  if (typeof punctuation !== 'string' || !/^[!-/:-@[-`{-~]*$/.test(punctuation)) {
    throw new McpClientError('name rule: punctuation must be a string of ASCII punctuation characters');
  }
  const allowed = new Uint8Array(128);
  for (let code = 0; code < 128; code++) allowed[code] = isWordCode(code) ? 1 : 0;
  for (let i = 0; i < punctuation.length; i++) allowed[punctuation.charCodeAt(i)] = 1;
  return { maxLength, letterFirst, allowed };
}

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isLetterOrUnderscore(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** Whether a name may be shown as it is. */
function fits(name: string, rule: CompiledRule): boolean {
  if (name.length === 0 || name.length > rule.maxLength) return false;
  if (rule.letterFirst && !isLetterOrUnderscore(name.charCodeAt(0))) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 128 || rule.allowed[code] === 0) return false;
  }
  return true;
}

/**
 * The names to show for a list of real names, in order, or `undefined` when
 * every name fits the rule as it is (the common case, which costs one scan).
 * A name that fits is never changed; one that does not becomes a readable
 * stem (its first characters, each one the rule refuses turned into `_`)
 * and a hash of the whole name, so it is the same in every process. A
 * mapped name never equals a name that fits, nor another mapped name: on a
 * clash the hash is salted, in list order. The same real name twice is
 * shown the same way twice.
 */
function shownNames(real: readonly string[], rule: CompiledRule): string[] | undefined {
  if (real.every((name) => fits(name, rule))) return undefined;
  const taken = new Set(real.filter((name) => fits(name, rule)));
  const mapped = new Map<string, string>();
  return real.map((name) => {
    if (fits(name, rule)) return name;
    let shown = mapped.get(name);
    if (shown === undefined) {
      const stem = stemOf(name, rule);
      for (let salt = 0; shown === undefined || taken.has(shown); salt++) shown = `${stem}_${digest(name, salt)}`;
      taken.add(shown);
      mapped.set(name, shown);
    }
    return shown;
  });
}

// The readable head of a name: refused characters become one `_` per run,
// and the stem leaves room for `_` and the hash. Only the head is read, so a
// huge name costs no more here than a short one.
function stemOf(name: string, rule: CompiledRule): string {
  const room = rule.maxLength - HASH_LENGTH - 1;
  let stem = '';
  for (let i = 0; i < name.length && stem.length < room; i++) {
    const code = name.charCodeAt(i);
    const keep = code < 128 && rule.allowed[code] === 1;
    if (keep) stem += name[i];
    else if (!stem.endsWith('_')) stem += '_';
  }
  stem = stem.replace(/_+$/, '');
  if (stem === '') return 'tool';
  if (rule.letterFirst && !isLetterOrUnderscore(stem.charCodeAt(0))) stem = `_${stem}`.slice(0, room);
  return stem;
}

// 40 bits of two 32-bit multiplicative hashes of every UTF-16 unit, each
// finished with an avalanche step, as 8 base-32 digits. Not cryptographic:
// clashes are resolved by salting, so all it must be is stable and spread.
function digest(text: string, salt: number): string {
  let a = (0x811c9dc5 ^ salt) >>> 0;
  let b = (0x9e3779b9 + salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = avalanche(a ^ text.length);
  b = avalanche(b ^ a);
  return ((b >>> 24) * 0x100000000 + (a >>> 0)).toString(32).padStart(HASH_LENGTH, '0');
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Shown name -> real name for a list of real names under a rule (the default
 * rule when left out): every name, the ones that fit mapped to themselves.
 * Pure: the same list and rule give the same map in every process.
 *
 * @throws McpClientError for an invalid rule.
 * @example
 * ```ts
 * portableToolNames(['github.create_issue']); // Map { 'github_create_issue_…' => 'github.create_issue' }
 * ```
 */
export function portableToolNames(real: readonly string[], rule?: ToolNameRule): Map<string, string> {
  const compiledRule = ruleOf(rule) as CompiledRule;
  const shown = shownNames(real, compiledRule) ?? real;
  return new Map(shown.map((name, n) => [name, real[n] as string]));
}

/**
 * What a provider shows a model, read back: shown name -> real name for each
 * of its tools, for logs and UIs. Asks the provider for its real names and
 * maps them as the provider does, so it works for any provider (one that
 * knows nothing of names gives each name mapped to itself).
 *
 * @throws McpClientError (as a rejection) for an invalid rule; whatever the provider's listing rejects with.
 * @example
 * ```ts
 * for (const [shown, real] of await toolNames(registry)) if (shown !== real) log(`${shown} is ${real}`);
 * ```
 */
export async function toolNames(
  provider: { toolsForLlm(options?: ToolsForLlmOptions): Promise<Array<{ function: { name: string } }>> },
  rule?: ToolNameRule,
): Promise<Map<string, string>> {
  ruleOf(rule);
  const tools = await provider.toolsForLlm({ names: 'real' });
  return portableToolNames(
    tools.map((tool) => tool.function.name),
    rule,
  );
}

/** A named thing with its name where declarations and calls keep it. */
interface Named {
  function: { name: string };
}

/**
 * One layer's view of its names: it maps the declarations it hands out and
 * reads back the calls it is given, remembering the last mapping so that a
 * catalogue that did not change is not hashed again.
 */
export class NameMapper {
  private last: { real: readonly string[]; rule: CompiledRule; shown: string[] | undefined; back: Map<string, string> | undefined } | undefined;

  /**
   * The declarations with the names the option asks for; the same array
   * when nothing needs a new name.
   *
   * @throws McpClientError for an invalid `names` option.
   */
  show<T extends Named>(tools: T[], names: ToolNames | undefined): T[] {
    const rule = ruleOf(names);
    if (!rule) return tools;
    const { shown } = this.mapping(
      tools.map((tool) => tool.function.name),
      rule,
    );
    if (!shown) return tools;
    return tools.map((tool, n) => (tool.function.name === shown[n] ? tool : { ...tool, function: { ...tool.function, name: shown[n] as string } }));
  }

  /**
   * The calls with their real names. A call under a name this layer maps is
   * given the real one; any other call is left as it is (a mapped name never
   * equals a real one, so nothing is misread). The real names are listed
   * only when some call's name has the shape of a mapped one.
   *
   * @throws McpClientError for an invalid `names` option; whatever `listReal` rejects with.
   */
  async toReal<T>(calls: readonly T[], names: ToolNames | undefined, listReal: () => Promise<Named[]>): Promise<T[]> {
    const rule = ruleOf(names);
    if (!rule || !calls.some((call) => looksMapped(nameOf(call)))) return calls as T[];
    const { back } = this.mapping(
      (await listReal()).map((tool) => tool.function.name),
      rule,
    );
    if (!back) return calls as T[];
    return calls.map((call) => {
      const real = back.get(nameOf(call) ?? '');
      if (real === undefined) return call;
      const { function: fn } = call as Named;
      return { ...call, function: { ...fn, name: real } };
    });
  }

  private mapping(real: readonly string[], rule: CompiledRule): { shown: string[] | undefined; back: Map<string, string> | undefined } {
    const last = this.last;
    if (last && last.rule === rule && last.real.length === real.length && last.real.every((name, n) => name === real[n])) return last;
    const shown = shownNames(real, rule);
    let back: Map<string, string> | undefined;
    if (shown) {
      back = new Map();
      shown.forEach((name, n) => {
        if (name !== real[n]) back?.set(name, real[n] as string);
      });
    }
    this.last = { real, rule, shown, back };
    return this.last;
  }
}

// Cheap enough for every call: the shape of a mapped name, read from its end only.
function looksMapped(name: string | undefined): boolean {
  return name !== undefined && name.length > HASH_LENGTH && name.charCodeAt(name.length - HASH_LENGTH - 1) === 95 && SUFFIX.test(name.slice(-HASH_LENGTH - 1));
}

function nameOf(call: unknown): string | undefined {
  const name = (call as { function?: { name?: unknown } } | null)?.function?.name;
  return typeof name === 'string' ? name : undefined;
}
