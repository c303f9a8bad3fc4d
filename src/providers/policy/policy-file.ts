import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { stripJsonComments } from '../../config/jsonc.js';
import { McpConfigError } from '../../errors/config-errors.js';
import { Policy } from './policy.js';
import { segments } from './paths.js';
import { type PolicyRule, RULE_KEYS, validateRule } from './rules.js';
import { isObject, messageOf } from '../../util/values.js';
import { keysOf } from '../../util/option-keys.js';

/** The largest policy file read, in bytes (1 MiB): thousands of rules, short of exhausting memory. */
export const MAX_POLICY_BYTES = 1024 * 1024;
/** The most rules, roots or location keys one file may hold. */
const MAX_ITEMS = 10_000;
/** The Redis namespace `rxmcp serve` keeps its grants and leases under when the file names none. */
export const DEFAULT_REDIS_NAMESPACE = 'rxmcp-serve';

// The keys a file may have: those of the PolicyFile it reads into, less `source` (where it came from, not written in it).
const KEYS: ReadonlySet<string> = new Set(
  keysOf<Omit<PolicyFile, 'source'>>({
    rules: true,
    roots: true,
    leases: true,
    redis: true,
    grantsFile: true,
    pinsFile: true,
    // One host's "always" binding every host is a choice the file makes.
    sharedGrants: true,
    locationKeys: true,
    caseInsensitivePaths: true,
    trustAnnotations: true,
  }),
);
const RULE_KEY_SET: ReadonlySet<string> = new Set(RULE_KEYS);
const REDIS_KEYS: ReadonlySet<string> = new Set(keysOf<NonNullable<PolicyFile['redis']>>({ url: true, namespace: true }));

/** A policy file, read and checked: what `rxmcp serve` builds its `Policy` (and `Leases`) from. */
export interface PolicyFile {
  /** The file it came from, as given. */
  source: string;
  /** The rules, checked as `Policy` checks them; `Policy.defaultRules()` when the file has no `rules`. */
  rules: PolicyRule[];
  /** Tool-name prefix → the server's directory (absolute), for relative locations; a map without a prototype. */
  roots: Record<string, string>;
  /** Whether the `Leases` layer (and its `lock_acquire` / `lock_release` tools) is on. Default false. */
  leases: boolean;
  /** A Redis server shared by every gateway of a fleet: grants (`RedisGrants`) and, with `leases`, the lease table. */
  redis?: { url: string; namespace: string };
  /** The file grants are kept in across runs (`FileGrants`), resolved against the policy file's folder. */
  grantsFile?: string;
  /** The file `rxmcp serve` keeps its tool pins in (`FilePins`), resolved against the policy file's folder; default one per config file under `~/.config/rxmcp/pins`. */
  pinsFile?: string;
  /** Whether one host's "always" answer binds every host of the gateway (`GatewayOptions.sharedGrants`). Default false: only that host. */
  sharedGrants?: boolean;
  /** The words that name a location in an argument's key (`PolicyOptions.locationKeys`). */
  locationKeys?: string[];
  /** Compare paths case-folded (`PolicyOptions.caseInsensitivePaths`). */
  caseInsensitivePaths?: boolean;
  /** The servers (by their names in the config) whose tool annotations are trusted (the client option `trustAnnotations`). */
  trustAnnotations?: string[];
}

/**
 * Reads and checks a policy file (see `parsePolicyFile`).
 *
 * @throws McpConfigError (as a rejection) for a file that cannot be read, is larger than `MAX_POLICY_BYTES`, or does not check.
 */
export async function readPolicyFile(path: string): Promise<PolicyFile> {
  const full = resolve(path);
  let text: string;
  try {
    const info = await stat(full);
    if (!info.isFile()) throw new McpConfigError({ source: path }, 'is not a file');
    if (info.size > MAX_POLICY_BYTES) throw new McpConfigError({ source: path }, `is larger than ${MAX_POLICY_BYTES} bytes`);
    text = await readFile(full, 'utf8');
  } catch (error) {
    if (error instanceof McpConfigError) throw error;
    throw new McpConfigError({ source: path }, `cannot be read: ${(error as { code?: string }).code ?? messageOf(error)}`);
  }
  return parsePolicyFile(text, path, dirname(full));
}

/**
 * Checks the text of a policy file: JSON (comments and trailing commas
 * allowed) holding `rules`, `roots`, `leases`, `redis`, `grantsFile`,
 * `locationKeys`, `caseInsensitivePaths` and `trustAnnotations`, and nothing else. Rules are
 * checked exactly as `Policy` checks them. Every error is an
 * `McpConfigError` naming the file and the key (`rules[2].under`), with
 * names quoted and never a value of the file: a Redis URL may hold a password.
 *
 * The walk goes no deeper than the format does (a rule's values are text,
 * true/false or lists of text), so a hostile file cannot make it recurse,
 * and keys such as `__proto__` stay plain keys.
 *
 * @param baseDir the folder a relative `grantsFile` is resolved against (the policy file's own).
 * @throws McpConfigError for text too long, malformed, or any key or rule that does not check.
 */
export function parsePolicyFile(text: string, source: string, baseDir: string = process.cwd()): PolicyFile {
  if (text.length > MAX_POLICY_BYTES) throw new McpConfigError({ source }, `is longer than ${MAX_POLICY_BYTES} characters`);
  const fail = (key: string | undefined, reason: string): never => {
    throw new McpConfigError(key === undefined ? { source } : { source, key }, reason);
  };
  let value: unknown;
  const json = stripJsonComments(text.replace(/^\uFEFF/, ''));
  try {
    value = JSON.parse(json);
  } catch {
    // No cause and no excerpt: the parser quotes the text around the fault.
    return fail(undefined, 'is not valid JSON');
  }
  if (!isObject(value)) return fail(undefined, 'must hold a JSON object');
  for (const key of Object.keys(value)) if (!KEYS.has(key)) fail(key, 'is not a key of a policy file (rules, roots, leases, redis, grantsFile, pinsFile, locationKeys, caseInsensitivePaths, trustAnnotations)');
  const has = (key: string): boolean => Object.hasOwn(value, key) && value[key] !== undefined;

  const file: PolicyFile = { source, rules: has('rules') ? rulesOf(value['rules'], fail) : Policy.defaultRules(), roots: rootsOf(value['roots'], fail), leases: false };
  if (has('leases')) {
    if (typeof value['leases'] !== 'boolean') fail('leases', 'must be true or false');
    file.leases = value['leases'] as boolean;
  }
  if (has('sharedGrants')) {
    if (typeof value['sharedGrants'] !== 'boolean') fail('sharedGrants', 'must be true or false');
    file.sharedGrants = value['sharedGrants'] as boolean;
  }
  if (has('caseInsensitivePaths')) {
    if (typeof value['caseInsensitivePaths'] !== 'boolean') fail('caseInsensitivePaths', 'must be true or false');
    file.caseInsensitivePaths = value['caseInsensitivePaths'] as boolean;
  }
  if (has('locationKeys')) file.locationKeys = wordsOf(value['locationKeys'], 'locationKeys', fail);
  if (has('trustAnnotations')) file.trustAnnotations = wordsOf(value['trustAnnotations'], 'trustAnnotations', fail);
  if (has('redis')) file.redis = redisOf(value['redis'], fail);
  if (has('grantsFile')) {
    const grantsFile = value['grantsFile'];
    if (typeof grantsFile !== 'string' || grantsFile === '' || grantsFile.includes('\0')) fail('grantsFile', 'must be a path');
    if (file.redis) fail('grantsFile', 'goes without redis: with redis, grants are kept in Redis');
    file.grantsFile = resolve(baseDir, grantsFile as string);
  }
  if (has('pinsFile')) {
    const pinsFile = value['pinsFile'];
    if (typeof pinsFile !== 'string' || pinsFile === '' || pinsFile.includes('\0')) fail('pinsFile', 'must be a path');
    if (file.redis) fail('pinsFile', 'goes without redis: with redis, pins are kept in Redis');
    file.pinsFile = resolve(baseDir, pinsFile as string);
  }
  return file;
}

type Fail = (key: string | undefined, reason: string) => never;

function rulesOf(value: unknown, fail: Fail): PolicyRule[] {
  if (!Array.isArray(value)) return fail('rules', 'must be a list of rules');
  if (value.length > MAX_ITEMS) fail('rules', `has more than ${MAX_ITEMS} rules`);
  return value.map((rule: unknown, n) => {
    const key = `rules[${n}]`;
    if (!isObject(rule)) return fail(key, 'must be an object');
    // Shape first, so what reaches the Policy's own check is flat: text,
    // true/false, or lists of text, and the messages name the key.
    const copy: Record<string, unknown> = {};
    for (const name of Object.keys(rule)) {
      if (!RULE_KEY_SET.has(name)) fail(`${key}.${name}`, 'is not a key of a rule');
      const item = rule[name];
      if (Array.isArray(item)) {
        if (item.length > MAX_ITEMS) fail(`${key}.${name}`, `has more than ${MAX_ITEMS} items`);
        if (!item.every((word) => typeof word === 'string')) fail(`${key}.${name}`, 'must be a list of words');
      } else if (typeof item !== 'string' && typeof item !== 'boolean') {
        fail(`${key}.${name}`, 'must be text, true or false, or a list of words');
      }
      copy[name] = Array.isArray(item) ? [...item] : item;
    }
    try {
      return validateRule(copy, key);
    } catch (error) {
      // The Policy's message repeats the rule as JSON before its reason; the
      // key names the rule, and the file is there to read it.
      const prefix = `${key} ${JSON.stringify(copy)}: `;
      const message = messageOf(error);
      return fail(key, message.startsWith(prefix) ? message.slice(prefix.length) : 'is not a valid rule');
    }
  });
}

function rootsOf(value: unknown, fail: Fail): Record<string, string> {
  const roots = Object.create(null) as Record<string, string>;
  if (value === undefined) return roots;
  if (!isObject(value)) return fail('roots', 'must be an object that maps tool-name prefixes to directories');
  const prefixes = Object.keys(value);
  if (prefixes.length > MAX_ITEMS) fail('roots', `has more than ${MAX_ITEMS} entries`);
  for (const prefix of prefixes) {
    const dir = value[prefix];
    // The Policy resolves a relative location against it, and can only do so from an absolute plain path.
    if (typeof dir !== 'string' || !dir.startsWith('/') || segments(dir, undefined) === undefined) {
      fail(`roots.${prefix}`, 'must be an absolute plain path (no ~, variables, URIs, drive letters or .. segments)');
    }
    roots[prefix] = dir as string;
  }
  return roots;
}

function wordsOf(value: unknown, key: string, fail: Fail): string[] {
  if (!Array.isArray(value) || !value.every((word) => typeof word === 'string' && word !== '')) return fail(key, 'must be a list of words');
  if (value.length > MAX_ITEMS) fail(key, `has more than ${MAX_ITEMS} items`);
  return [...(value as string[])];
}

function redisOf(value: unknown, fail: Fail): { url: string; namespace: string } {
  let url: unknown = value;
  let namespace: unknown = DEFAULT_REDIS_NAMESPACE;
  if (isObject(value)) {
    for (const key of Object.keys(value)) if (!REDIS_KEYS.has(key)) fail(`redis.${key}`, 'is not a key of redis (url, namespace)');
    url = value['url'];
    if (Object.hasOwn(value, 'namespace')) namespace = value['namespace'];
  }
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  // The URL is never quoted: it may carry a password.
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')) fail(isObject(value) ? 'redis.url' : 'redis', 'must be a redis:// or rediss:// URL');
  if (typeof namespace !== 'string' || namespace === '') fail('redis.namespace', 'must be a non-empty name');
  return { url: url as string, namespace: namespace as string };
}
