import type { PermissionAnswer, PermissionQuestion } from '../providers/policy/policy.js';
import { DEFAULT_LOCATION_KEYS, inside, locationsOf } from '../providers/policy/paths.js';

/** The most "always" answers kept for one host, and the most hosts kept (the oldest go first). */
const MAX_GRANTS_PER_HOST = 256;
const MAX_HOSTS = 1_024;

interface HostGrant {
  tool: string;
  /** The folder the grant holds for (the question's suggestion), or `undefined` for the whole tool. */
  under: string | undefined;
  allow: boolean;
  /** The tool's fingerprint when the answer was given: the grant lapses when the tool's definition changes. */
  fingerprint: string | undefined;
}

/**
 * The "always" answers of each host, kept apart: one host's "always allow"
 * never decides another host's call. A host is the gateway's name for who
 * made a call (a stdio connection, a 2025-era HTTP session, a 2026-07-28
 * HTTP client by its bearer token and name). The Policy is handed the once
 * form of such an answer, so its own (shared) grants never hear of it.
 *
 * A grant holds as the Policy's own would: for its tool, within the folder
 * the question suggested (every location of a later call inside it, read by
 * the Policy), or for the whole tool when the call named no location; never
 * for a question a `danger` rule asked, which is asked every time.
 */
export class HostGrants {
  private readonly byHost = new Map<string, HostGrant[]>();

  /** What an earlier "always" answer of `host` decides for `question` (a deny over an allow), if any. */
  decide(host: string, question: PermissionQuestion): PermissionAnswer | undefined {
    if (isDanger(question)) return undefined;
    let allow = false;
    for (const grant of this.byHost.get(host) ?? []) {
      if (!fits(grant, question)) continue;
      if (!grant.allow) return { action: 'deny-once' };
      allow = true;
    }
    return allow ? { action: 'allow-once' } : undefined;
  }

  /** Keeps an "always" answer for `host` alone; what the Policy is given instead is its once form. */
  keep(host: string, question: PermissionQuestion, answer: PermissionAnswer): PermissionAnswer {
    if (answer.action !== 'always-allow' && answer.action !== 'always-deny') return answer;
    const allow = answer.action === 'always-allow';
    const once: PermissionAnswer = { action: allow ? 'allow-once' : 'deny-once' };
    // Locations the Policy could not read leave no suggestion (and are not among `question.locations`, which lists
    // those it read): a grant for the whole tool would then allow what nobody was shown. As the Policy does, the
    // arguments themselves are looked through for a location.
    if (isDanger(question) || (question.suggestion === undefined && (question.locations.length > 0 || hasLocation(question)))) return once;
    const grants = this.byHost.get(host) ?? [];
    if (!this.byHost.has(host)) {
      if (this.byHost.size >= MAX_HOSTS) this.byHost.delete(this.byHost.keys().next().value as string);
      this.byHost.set(host, grants);
    }
    if (grants.length >= MAX_GRANTS_PER_HOST) grants.shift();
    grants.push({ tool: question.tool, under: question.suggestion, allow, fingerprint: question.fingerprint });
    return once;
  }

  /** Forgets a host that went away (its connection or session closed). */
  forget(host: string): void {
    this.byHost.delete(host);
  }
}

// Whether the call names any location, readable or not (under the Policy's default location keys, or as a path anywhere).
function hasLocation(question: PermissionQuestion): boolean {
  return question.arguments !== null && typeof question.arguments === 'object' && locationsOf(question.arguments, DEFAULT_LOCATION_KEYS).length > 0;
}

function isDanger(question: PermissionQuestion): boolean {
  return question.rule?.severity === 'danger';
}

function fits(grant: HostGrant, question: PermissionQuestion): boolean {
  if (grant.tool !== question.tool || grant.fingerprint !== question.fingerprint) return false;
  if (grant.under === undefined) return true;
  return question.suggestion !== undefined && inside(question.suggestion, grant.under, undefined) === 'yes';
}
