// RFC 6570 URI templates, as far as a form of text fields needs them: every
// operator, with string values only (a prefix `:n` applies; an explode `*`
// changes nothing for a string). A template is the server's: it is read in
// one pass with no backtracking, and bounded.

/** The longest template read; a longer one has no variables and expands to itself. */
export const MAX_TEMPLATE_CHARS = 8192;
/** The most variables one template's form gets. */
export const MAX_VARIABLES = 64;

interface Operator {
  first: string;
  separator: string;
  named: boolean;
  /** What follows a named variable whose value is empty. */
  ifEmpty: string;
  allowReserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const EXPRESSION = /\{([^{}]*)\}/g;
const VARIABLE = /^([A-Za-z0-9_.%]+)(\*|:([1-9][0-9]{0,3}))?$/;

interface Spec {
  name: string;
  prefix: number | undefined;
}

/** An expression's operator and variables, or undefined for one that is not an expression (left as it is). */
function parse(body: string): [Operator, Spec[]] | undefined {
  const key = Object.hasOwn(OPERATORS, body.charAt(0)) ? body.charAt(0) : '';
  const operator = OPERATORS[key] as Operator;
  const specs: Spec[] = [];
  for (const part of body.slice(key.length).split(',')) {
    const match = VARIABLE.exec(part);
    if (!match) return undefined;
    specs.push({ name: match[1] as string, prefix: match[3] === undefined ? undefined : Number(match[3]) });
  }
  return [operator, specs];
}

/** The variables a template names, each once, in order (at most `MAX_VARIABLES`). */
export function templateVariables(template: string): string[] {
  if (template.length > MAX_TEMPLATE_CHARS) return [];
  const names = new Set<string>();
  for (const [, body] of template.matchAll(EXPRESSION)) {
    for (const spec of parse(body as string)?.[1] ?? []) {
      if (names.size >= MAX_VARIABLES) return [...names];
      names.add(spec.name);
    }
  }
  return [...names];
}

/**
 * Expands a template with `values` (a variable absent from the map is
 * undefined and left out, as RFC 6570 says). Characters a value may not
 * carry as they are are percent-encoded as UTF-8; a lone surrogate becomes
 * U+FFFD rather than an error.
 */
export function expandTemplate(template: string, values: ReadonlyMap<string, string>): string {
  if (template.length > MAX_TEMPLATE_CHARS) return template;
  return template.replace(EXPRESSION, (whole, body: string) => {
    const parsed = parse(body);
    if (!parsed) return whole;
    const [operator, specs] = parsed;
    const parts: string[] = [];
    for (const { name, prefix } of specs) {
      const raw = values.get(name);
      if (raw === undefined) continue;
      const value = encode(prefix === undefined ? raw : [...raw].slice(0, prefix).join(''), operator.allowReserved);
      parts.push(operator.named ? (value === '' ? `${name}${operator.ifEmpty}` : `${name}=${value}`) : value);
    }
    return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
  });
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const HEX = /^[0-9A-Fa-f]{2}$/;
const utf8 = new TextEncoder();

function encode(value: string, allowReserved: boolean): string {
  let out = '';
  let index = 0;
  for (const char of value) {
    if (UNRESERVED.test(char) || (allowReserved && (RESERVED.test(char) || (char === '%' && HEX.test(value.slice(index + 1, index + 3)))))) out += char;
    else for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    index += char.length;
  }
  return out;
}
