import type { InputRequest } from '../client/input-hooks.js';
import { isObject } from '../util/values.js';

/** The choices of the gateway's own permission form, which no upstream form may offer. */
const PERMISSION_CHOICES = new Set(['allow-once', 'deny-once', 'always-allow', 'always-deny']);
/** The most properties, and choices of each, looked at in an upstream form: past them, the form is refused. */
const MAX_PROPERTIES = 100;
const MAX_CHOICES = 100;
/** The longest server name shown. */
const MAX_NAME_CHARS = 100;

/**
 * Why an upstream server's elicitation must not reach a host, or
 * `undefined`: a form shaped like the gateway's own permission form (a
 * `decision` property, a choice the permission form offers, or a message
 * asking to let a tool run). An upstream server could otherwise have the
 * host's person "allow" something in a question they take for the
 * gateway's, or learn what their answer to the real one looks like.
 */
export function imitatesPermissionForm(request: InputRequest): string | undefined {
  if (request.method !== 'elicitation/create') return undefined;
  const refused = 'the server asked in the shape of the gateway’s permission form, so its question was refused';
  const { message, requestedSchema } = request.params;
  if (typeof message === 'string' && /allow\s+the\s+tool|always[\s-]+allow|allow[\s-]+once/i.test(message)) return refused;
  const properties = isObject(requestedSchema) && isObject(requestedSchema.properties) ? requestedSchema.properties : undefined;
  if (!properties) return undefined;
  const names = Object.keys(properties);
  if (names.length > MAX_PROPERTIES) return `the server's form has more than ${MAX_PROPERTIES} fields, so its question was refused`;
  for (const name of names) {
    if (name.trim().toLowerCase() === 'decision') return refused;
    const property = properties[name];
    if (!isObject(property)) continue;
    const choices = [...(Array.isArray(property.enum) ? property.enum : []), ...(Array.isArray(property.oneOf) ? property.oneOf : []), ...(Array.isArray(property.anyOf) ? property.anyOf : [])];
    const items = isObject(property.items) ? property.items : undefined;
    if (items) choices.push(...(Array.isArray(items.enum) ? items.enum : []), ...(Array.isArray(items.anyOf) ? items.anyOf : []), ...(Array.isArray(items.oneOf) ? items.oneOf : []));
    if (choices.length > MAX_CHOICES) return `the server's form offers more than ${MAX_CHOICES} choices in one field, so its question was refused`;
    for (const choice of choices) {
      const value = isObject(choice) ? choice.const : choice;
      if (typeof value === 'string' && PERMISSION_CHOICES.has(value.trim().toLowerCase())) return refused;
    }
  }
  return undefined;
}

/**
 * An upstream elicitation as its host is shown it: the message opens with
 * the name of the server that asks, so the person never takes it for the
 * gateway's own question. Other questions go as they are.
 */
export function underServerName(request: InputRequest, server: string | undefined): InputRequest {
  if (request.method !== 'elicitation/create') return request;
  const name = server === undefined || server === '' ? 'an upstream server' : `the server ${JSON.stringify(server.slice(0, MAX_NAME_CHARS))}`;
  const message = typeof request.params.message === 'string' ? request.params.message : '';
  return { ...request, params: { ...request.params, message: `Asked by ${name} (not by the gateway): ${message}` } };
}
