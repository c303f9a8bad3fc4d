import { createHash } from 'node:crypto';
import type { PermissionAnswer, PermissionQuestion } from '../providers/policy/policy.js';
import { isObject } from '../util/values.js';
import { spelledOut } from './shown-text.js';

/** The most characters of a call's arguments a question shows. */
const MAX_SHOWN_ARGUMENTS = 2_000;
/** The most locations a question lists, and characters of each. */
const MAX_SHOWN_LOCATIONS = 20;
const MAX_LOCATION_CHARS = 300;

/**
 * The key a permission question is asked and answered under in
 * `inputRequests` / `inputResponses`: a digest of the tool, the arguments as
 * sent and the rule that asked, so the same call asked again (a host's retry)
 * finds its answer, and another call never does. The key is no secret: the
 * gateway reads an answer under it only from a retry whose sealed
 * `requestState` says the question was put to that host for that request.
 */
export function permissionKey(question: PermissionQuestion): string {
  const args = typeof question.call.function.arguments === 'string' ? question.call.function.arguments : safeJson(question.call.function.arguments);
  const digest = createHash('sha256').update(JSON.stringify([question.tool, args, question.rule?.note ?? '', question.rule?.tool ?? ''])).digest('hex');
  return `rxmcp-permission-${digest.slice(0, 24)}`;
}

/**
 * The form elicitation that puts a permission question to a human. `shared`
 * says whether an "always" answer binds every host of the gateway (the
 * policy file's `sharedGrants`) or only the host asked; the form says which.
 */
export function permissionForm(question: PermissionQuestion, shared = false): { mode: 'form'; message: string; requestedSchema: Record<string, unknown> } {
  const lines = [`Allow the tool ${JSON.stringify(question.tool)} to run?`];
  if (question.rule?.note) lines.push(`Rule: ${question.rule.note}`);
  if (question.caller === 'app') lines.push('Asked by an app, not by the model.');
  // Listed ahead of the arguments, whose shown head a model can fill with
  // anything so that the path it writes to falls past the cut.
  if (question.locations.length > 0) lines.push(`Locations: ${shownLocations(question.locations)}`);
  lines.push(`Arguments: ${shownArguments(question.arguments)}`);
  const scope = shared ? 'for every host of this gateway' : 'for this host only';
  lines.push(`"Always" choices apply ${scope}.`);
  const always = spelledOut(`${question.suggestion ? `Always allow ${question.tool} under ${question.suggestion}` : `Always allow ${question.tool}`}, ${scope}`);
  return {
    mode: 'form',
    // The tool, the arguments and the locations are the model's or a server's: a bidi override or a control in
    // them must not reorder or erase what the person reads before deciding.
    message: spelledOut(lines.join('\n')),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          oneOf: [
            { const: 'allow-once', title: 'Allow once' },
            { const: 'deny-once', title: 'Deny' },
            { const: 'always-allow', title: always },
            { const: 'always-deny', title: spelledOut(`Always deny ${question.tool}, ${scope}`) },
          ],
        },
      },
      required: ['decision'],
    },
  };
}

/** What a host's answer to the form means: anything but an accepted, known choice denies this once. */
export function permissionAnswer(result: unknown): PermissionAnswer {
  const decision = isObject(result) && result.action === 'accept' && isObject(result.content) ? result.content.decision : undefined;
  const known = ['allow-once', 'deny-once', 'always-allow', 'always-deny'] as const;
  return { action: known.find((action) => action === decision) ?? 'deny-once' };
}

// Arguments a host sent may be anything JSON allows: too deep to write out,
// or huge. The question shows a bounded head.
function shownArguments(args: unknown): string {
  const text = safeJson(args);
  return text.length > MAX_SHOWN_ARGUMENTS ? `${text.slice(0, MAX_SHOWN_ARGUMENTS)}… (${text.length - MAX_SHOWN_ARGUMENTS} more characters)` : text;
}

function shownLocations(locations: readonly string[]): string {
  const shown = locations.slice(0, MAX_SHOWN_LOCATIONS).map((location) => JSON.stringify(location.length > MAX_LOCATION_CHARS ? `${location.slice(0, MAX_LOCATION_CHARS)}…` : location));
  const more = locations.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '(arguments too deep to show)';
  }
}
