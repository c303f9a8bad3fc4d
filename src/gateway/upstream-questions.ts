import type { InputRequest } from '../protocol/input-request.js';
import { isObject } from '../util/values.js';
import { spelledOut } from './shown-text.js';

/** The choices of the gateway's own permission form (as `readAs` reads them), which no upstream form may offer. */
const PERMISSION_CHOICES = new Set(['allow once', 'deny once', 'always allow', 'always deny']);
/** The permission form's field, as `readAs` reads it. */
const DECISION = 'declslon';
/** The permission form's own wording (as `readAs` reads it: an l for an i), which no upstream text may use. */
const PERMISSION_WORDS = /(?:^| )(?:allow the tool|always allow|allow once|always deny)/;
/** The most properties, and choices of each, looked at in an upstream form: past them, the form is refused. */
const MAX_PROPERTIES = 100;
const MAX_CHOICES = 100;
/** The longest server name shown. */
const MAX_NAME_CHARS = 100;
// Latin lookalikes of other scripts (Cyrillic, Greek), by what they are read as. NFKD already folds fullwidth
// and styled letters and splits off accents.
const LOOKALIKES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', ԁ: 'd', ԝ: 'w', ӏ: 'l', ɩ: 'l', ı: 'l', ɑ: 'a',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w', μ: 'u',
};
/**
 * Why an upstream server's elicitation must not reach a host, or
 * `undefined`: a form shaped like the gateway's own permission form (a
 * field named or titled `decision`, a choice the permission form offers,
 * the form's own wording in the message, a title, a description or a
 * choice's label). An upstream server could otherwise have the host's
 * person "allow" something in a question they take for the gateway's, or
 * learn what their answer to the real one looks like.
 *
 * Text is compared as it is read, not as it is spelled: lookalike letters
 * (Cyrillic, Greek, fullwidth, a capital I or a 1 for an l, a 0 for an o),
 * accents, invisible characters and any separator (a zero-width or braille
 * blank for a space, `_` for `-`) do not make it another text.
 */
export function imitatesPermissionForm(request: InputRequest): string | undefined {
  if (request.method !== 'elicitation/create') return undefined;
  const refused = 'the server asked in the shape of the gateway’s permission form, so its question was refused';
  const { message, requestedSchema } = request.params;
  if (saysPermission(message)) return refused;
  if (!isObject(requestedSchema)) return undefined;
  if (saysPermission(requestedSchema.title) || saysPermission(requestedSchema.description)) return refused;
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : undefined;
  if (!properties) return undefined;
  const names = Object.keys(properties);
  if (names.length > MAX_PROPERTIES) return `the server's form has more than ${MAX_PROPERTIES} fields, so its question was refused`;
  for (const name of names) {
    if (readAs(name) === DECISION) return refused;
    const property = properties[name];
    if (!isObject(property)) continue;
    if (readAs(property.title) === DECISION || saysPermission(property.title) || saysPermission(property.description)) return refused;
    const items = isObject(property.items) ? property.items : {};
    const choices = [property.enum, property.oneOf, property.anyOf, property.enumNames, items.enum, items.oneOf, items.anyOf, items.enumNames].flatMap((list) => (Array.isArray(list) ? list : []));
    if (choices.length > MAX_CHOICES) return `the server's form offers more than ${MAX_CHOICES} choices in one field, so its question was refused`;
    for (const choice of choices) {
      const texts = isObject(choice) ? [choice.const, choice.title, choice.description] : [choice];
      if (texts.some((text) => PERMISSION_CHOICES.has(readAs(text)) || saysPermission(text))) return refused;
    }
  }
  return undefined;
}

/**
 * An upstream elicitation as its host is shown it: the message opens with
 * the name of the server that asks, so the person never takes it for the
 * gateway's own question, and its controls are spelled out (`spelledOut`),
 * so none can hide that opening. Other questions go as they are.
 */
export function underServerName(request: InputRequest, server: string | undefined): InputRequest {
  if (request.method !== 'elicitation/create') return request;
  const name = server === undefined || server === '' ? 'an upstream server' : `the server ${JSON.stringify(server.slice(0, MAX_NAME_CHARS))}`;
  const message = typeof request.params.message === 'string' ? spelledOut(request.params.message) : '';
  return { ...request, params: { ...request.params, message: `Asked by ${name} (not by the gateway): ${message}` } };
}

// A text as a person reads it, for comparing with the permission form's: lookalikes as the letters they look
// like, accents gone, invisible characters gone (or, with `invisible` ' ', read as a space between words),
// every run of anything else one space, lower case.
function readAs(text: unknown, invisible: '' | ' ' = ''): string {
  if (typeof text !== 'string') return '';
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}/gu, '')
    .replace(/\p{Cf}/gu, invisible)
    .replace(/[^\x00-\x7f]/gu, (character) => LOOKALIKES[character] ?? ' ')
    .replace(/[i1|]/g, 'l')
    .replace(/0/g, 'o')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

// Whether a text uses the permission form's wording, its invisible characters read either way.
function saysPermission(text: unknown): boolean {
  return PERMISSION_WORDS.test(readAs(text)) || PERMISSION_WORDS.test(readAs(text, ' '));
}
