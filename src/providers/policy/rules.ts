import { McpClientError } from '../../errors/mcp-client-error.js';
import { commandNarrowersHold } from './commands/command-rule.js';
import { CHECKS, globMatch } from './commands/commands.js';
import { hostMatch, urlsOf } from './hosts.js';
import { inside, locationsOf, segments } from './paths.js';
import { all, any, type Tri } from './tri.js';
import { isStrings } from '../../util/values.js';
import { keysOf } from '../../util/option-keys.js';
import { isFingerprint } from '../pins/tool-fingerprint.js';

/** What a rule decides. Strongest first: deny, then ask, then allow. */
export type PolicyDecision = 'allow' | 'deny' | 'ask';

/**
 * One permission rule, as plain data. `tool` and `decision` are required;
 * the narrowers say which calls of the tool the rule has an opinion about,
 * and every narrower present must hold (they are ANDed).
 */
export interface PolicyRule {
  /** A tool name, exact or with a trailing `*` (`fs_*`, `*`). */
  tool: string;
  decision: PolicyDecision;
  /** A directory the call's locations lie inside: all of them for an allow, any one for a deny or an ask. */
  under?: string;
  /** The program's basename, exact or with a trailing `*`; never a path. */
  command?: string;
  /** Words the program's arguments must begin with, in order. Needs `command`. */
  args?: string[];
  /** Words any one of which must appear among the program's arguments. Needs `command`. */
  argsAny?: string[];
  /** A built-in predicate over the effective command (see `CHECKS`). */
  check?: string;
  /** The host of the call's URLs: exact, or `*.example.org` for hosts under it; all of them for an allow, any one for a deny or an ask. */
  host?: string;
  /**
   * `true`: the tool is one its server annotates `readOnlyHint` (the server's
   * claim, not a guarantee), and the user trusts that server's annotations
   * (`trustAnnotations`; a `Toolkit`'s own tools always): an untrusted
   * server's tool never matches.
   */
  readOnly?: boolean;
  /** Why the rule exists, shown to the human and the model. */
  note?: string;
  /** `danger`: asked every time; no grant satisfies it. */
  severity?: 'normal' | 'danger';
  /**
   * The fingerprint of the tool's definition (as `Pins` takes it) the rule
   * was made under: it holds only while the tool's definition is that one.
   * `Policy` writes it into the grants of "always" answers for one tool, so
   * they lapse when the server changes the tool.
   */
  fingerprint?: string;
}

/** The keys a rule may have. */
export const RULE_KEYS = keysOf<PolicyRule>({
  tool: true,
  decision: true,
  under: true,
  command: true,
  args: true,
  argsAny: true,
  check: true,
  host: true,
  readOnly: true,
  note: true,
  severity: true,
  fingerprint: true,
});

/**
 * Checks a rule and returns it, or throws a McpClientError naming the rule
 * and what is wrong with it.
 */
export function validateRule(rule: unknown, where: string): PolicyRule {
  const fail = (problem: string): never => {
    throw new McpClientError(`${where} ${safeJson(rule)}: ${problem}`);
  };
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return fail('not an object');
  const r = rule as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!RULE_KEYS.includes(key)) fail(`unknown key ${JSON.stringify(key)}`);
  if (!isGlob(r.tool)) fail('tool must be a name, optionally ending in *');
  if (!['allow', 'deny', 'ask'].includes(r.decision as string)) fail('decision must be allow, deny or ask');
  if (r.under !== undefined && (typeof r.under !== 'string' || r.under === '')) fail('under must be a directory');
  // A directory no call could be proved inside would deny everything, or allow nothing.
  if (typeof r.under === 'string' && r.under !== '' && segments(r.under, '/') === undefined) fail('under must be a plain path: no ~, variables, URIs, drive letters or .. segments');
  if (r.command !== undefined) {
    if (!isGlob(r.command)) fail('command must be a program name, optionally ending in *');
    if ((r.command as string).includes('/')) fail('command is a basename: a / could never match');
  }
  for (const key of ['args', 'argsAny'] as const) {
    if (r[key] === undefined) continue;
    if (!isStrings(r[key])) fail(`${key} must be a list of words`);
    if (r.command === undefined) fail(`${key} needs command`);
  }
  if (r.check !== undefined && !(typeof r.check === 'string' && r.check in CHECKS)) fail(`check must be one of ${Object.keys(CHECKS).join(', ')}`);
  if (r.host !== undefined && !(typeof r.host === 'string' && /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(r.host))) {
    fail('host must be a host name, or *. followed by one');
  }
  if (r.readOnly !== undefined && r.readOnly !== true) fail('readOnly can only be true');
  if (r.note !== undefined && typeof r.note !== 'string') fail('note must be text');
  if (r.severity !== undefined && r.severity !== 'normal' && r.severity !== 'danger') fail('severity must be normal or danger');
  if (r.fingerprint !== undefined && !isFingerprint(r.fingerprint)) fail('fingerprint must be sha256: and 64 lowercase hex digits');
  return rule as PolicyRule;
}

function isGlob(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && !value.slice(0, -1).includes('*');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** What a rule is evaluated against. */
export interface CallFacts {
  tool: string;
  args: Record<string, unknown>;
  /** The server directory relative paths resolve against, if known. */
  root: string | undefined;
  locationKeys: readonly string[];
  /** Whether the server's filesystem ignores case, so paths are compared case-folded. */
  caseInsensitivePaths?: boolean;
  /** Whether the tool's server annotates it read-only; `undefined` when not known. */
  readOnly: boolean | undefined;
  /** The fingerprint of the tool's definition now, when known. */
  fingerprint?: string | undefined;
}

/**
 * Whether a rule's narrowers hold for a call: yes, no, or unknown (something
 * it could not read). Over several locations or URLs, an allow needs every
 * one to match, a deny or an ask any one; none at all is unknown.
 */
export function narrowersHold(rule: PolicyRule, facts: CallFacts): Tri {
  const results: Tri[] = [];
  const each = rule.decision === 'allow' ? all : any;
  if (rule.under !== undefined) {
    const locations = memo(locationCache, facts, () => locationsOf(facts.args, facts.locationKeys));
    const under = rule.under;
    results.push(locations.length === 0 ? 'unknown' : each(locations.map((location) => inside(location, under, facts.root, facts.caseInsensitivePaths))));
  }
  if (rule.command !== undefined || rule.check !== undefined) results.push(commandNarrowersHold(rule, facts));
  if (rule.host !== undefined) {
    const urls = memo(urlCache, facts, () => urlsOf(facts.args));
    const host = rule.host;
    results.push(urls.length === 0 ? 'unknown' : each(urls.map((url) => hostMatch(host, url))));
  }
  if (rule.readOnly) results.push(facts.readOnly === undefined ? 'unknown' : facts.readOnly ? 'yes' : 'no');
  if (rule.fingerprint !== undefined) results.push(facts.fingerprint === undefined ? 'unknown' : facts.fingerprint === rule.fingerprint ? 'yes' : 'no');
  return all(results);
}

// Read once per decision, however many rules look at the locations or URLs it names.
const locationCache = new WeakMap<CallFacts, unknown[]>();
const urlCache = new WeakMap<CallFacts, unknown[]>();
function memo(cache: WeakMap<CallFacts, unknown[]>, facts: CallFacts, read: () => unknown[]): unknown[] {
  let values = cache.get(facts);
  if (!values) cache.set(facts, (values = read()));
  return values;
}

/**
 * Whether a rule fires for a call. Fail-closed both ways: an allow fires
 * only on a definite yes; a deny or ask fires on a yes or an unknown.
 */
export function fires(rule: PolicyRule, facts: CallFacts): boolean {
  if (!globMatch(rule.tool, facts.tool)) return false;
  const holds = narrowersHold(rule, facts);
  return rule.decision === 'allow' ? holds === 'yes' : holds !== 'no';
}

const STRENGTH: Record<PolicyDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** The strongest decision among the rules that fire, with the rules that gave it; `undefined` when none fires. */
export function strongest(rules: readonly PolicyRule[], facts: CallFacts): { decision: PolicyDecision; rules: PolicyRule[] } | undefined {
  let best: PolicyDecision | undefined;
  let winners: PolicyRule[] = [];
  for (const rule of rules) {
    if (!fires(rule, facts)) continue;
    if (best === undefined || STRENGTH[rule.decision] > STRENGTH[best]) {
      best = rule.decision;
      winners = [rule];
    } else if (rule.decision === best) {
      winners.push(rule);
    }
  }
  return best === undefined ? undefined : { decision: best, rules: winners };
}

/** Whether a rule denies a tool whatever the call says: a deny with no narrowers. */
export function deniesOutright(rule: PolicyRule, tool: string): boolean {
  return (
    rule.decision === 'deny' &&
    globMatch(rule.tool, tool) &&
    rule.under === undefined &&
    rule.command === undefined &&
    rule.check === undefined &&
    rule.host === undefined &&
    rule.readOnly === undefined &&
    rule.fingerprint === undefined
  );
}

