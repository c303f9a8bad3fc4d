// One input of a form built from a JSON Schema property: the control that
// fits its type, format and choices, and how to read, fill and check it.
// The property is the server's (untrusted): own keys only, every list and
// text cut to a bound, nothing recursed into, everything shown as text.
import { element } from './element.js';

/** The most choices one field offers: a schema is the server's, and may list a million. */
export const MAX_CHOICES = 500;
/** The longest title, description or choice label shown. */
const MAX_TEXT = 1_000;
/** The longest default shown in a JSON field. */
const MAX_DEFAULT_JSON = 100_000;

/** One field of a schema form. */
export interface SchemaField {
  /** The property's name, as the server wrote it. */
  readonly name: string;
  /** What the form shows for it: label, description, control, and the place its problem is told. */
  readonly box: HTMLElement;
  /** Its value, `undefined` when left empty (then the property is left out). */
  read(): unknown;
  /** Shows `value` in it (the raw JSON view switching back to fields). */
  write(value: unknown): void;
  /** Why its value breaks the schema, in words, or `undefined`. */
  problem(): string | undefined;
  /** Shows `rule` as its problem, or clears it. */
  mark(rule: string | undefined): void;
}

// A unique id for each control, across every form on the page (a tool's and a question's may be open at once).
let nextId = 1;

/** A field for property `name` of a JSON Schema object; `required` when the object's `required` names it. */
export function schemaField(name: string, raw: unknown, required: boolean): SchemaField {
  const property = isRecord(raw) ? raw : {};
  const box = element('div');
  box.className = 'field';
  box.dataset.field = name;
  const id = `field-${nextId++}`;
  const label = element('label', cut(text(own(property, 'title')) ?? name));
  label.htmlFor = id;
  if (required) {
    const star = element('span', ' *');
    star.className = 'required';
    star.title = 'required';
    label.append(star);
  }
  box.append(label);
  const description = text(own(property, 'description'));
  if (description !== undefined) box.append(hint(cut(description)));

  const note = element('p');
  note.className = 'field-problem';
  note.hidden = true;
  const control = controlFor(name, property, id, required);
  box.append(control.node, note);
  const pattern = text(own(property, 'pattern'));
  // Shown, not enforced: a server's regular expression could run for as long as it likes (as the client's own check, answer-check.ts).
  if (pattern !== undefined) box.append(hint(`pattern: ${cut(pattern)}`));

  return {
    name,
    box,
    read: control.read,
    write: control.write,
    problem: () => {
      const value = control.read();
      if (value === undefined) return required ? 'is required' : undefined;
      return control.problem();
    },
    mark: (rule) => {
      note.textContent = rule === undefined ? '' : `${name} ${rule}`;
      note.hidden = rule === undefined;
      box.classList.toggle('invalid', rule !== undefined);
      for (const input of box.querySelectorAll('input, select, textarea')) {
        if (rule === undefined) input.removeAttribute('aria-invalid');
        else input.setAttribute('aria-invalid', 'true');
      }
    },
  };
}

interface Control {
  node: HTMLElement;
  read(): unknown;
  write(value: unknown): void;
  problem(): string | undefined;
}

function controlFor(name: string, property: Record<string, unknown>, id: string, required: boolean): Control {
  const type = typeOf(property);
  const items = own(property, 'items');
  const many = type === 'array' && isRecord(items) ? choicesOf(items) : undefined;
  if (many) return checkboxes(name, property, many, id);
  const one = type !== 'array' && type !== 'object' ? choicesOf(property) : undefined;
  if (one) return select(name, property, one, id, required);
  if (type === 'boolean') return checkbox(name, property, id);
  if (type === 'number' || type === 'integer') return numberInput(name, property, type, id, required);
  if (type === 'object' || type === 'array') return jsonText(name, property, type, id, required);
  return textInput(name, property, id, required);
}

/** A choice: the value sent, and the words shown. */
interface Choice {
  value: unknown;
  label: string;
}

/** `enum` (with the legacy `enumNames` as labels), or `oneOf`/`anyOf` of `{ const, title }`; `undefined` when the property offers no choices. */
function choicesOf(property: Record<string, unknown>): Choice[] | undefined {
  const values = own(property, 'enum');
  if (Array.isArray(values)) {
    const names = own(property, 'enumNames');
    return values.slice(0, MAX_CHOICES).map((value, index) => ({ value, label: cut(Array.isArray(names) ? (text(names[index]) ?? shown(value)) : shown(value)) }));
  }
  for (const key of ['oneOf', 'anyOf']) {
    const options = own(property, key);
    if (!Array.isArray(options) || options.length === 0) continue;
    const head = options.slice(0, MAX_CHOICES);
    if (!head.every((option) => isRecord(option) && Object.hasOwn(option, 'const'))) continue;
    return head.map((option) => {
      const value = (option as Record<string, unknown>).const;
      return { value, label: cut(text(own(option, 'title')) ?? shown(value)) };
    });
  }
  return undefined;
}

function select(name: string, property: Record<string, unknown>, choices: Choice[], id: string, required: boolean): Control {
  const node = element('select');
  node.name = name;
  node.id = id;
  node.required = required;
  // The empty choice leaves the property out; option values are indexes, so a choice keeps its JSON type.
  node.append(new Option('—', ''), ...choices.map((choice, index) => new Option(choice.label, String(index))));
  const write = (value: unknown): void => {
    const index = choices.findIndex((choice) => same(choice.value, value));
    node.value = index < 0 ? '' : String(index);
  };
  write(own(property, 'default'));
  return { node, read: () => (node.value === '' ? undefined : choices[Number(node.value)]?.value), write, problem: () => undefined };
}

function checkboxes(name: string, property: Record<string, unknown>, choices: Choice[], id: string): Control {
  const node = element('fieldset');
  node.className = 'choices';
  node.id = id;
  const boxes = choices.map((choice, index) => {
    const box = element('input');
    box.type = 'checkbox';
    box.name = name;
    box.value = String(index);
    const line = element('label');
    line.className = 'choice';
    line.append(box, element('span', choice.label));
    node.append(line);
    return box;
  });
  const write = (value: unknown): void => {
    const chosen = Array.isArray(value) ? value : [];
    boxes.forEach((box, index) => (box.checked = chosen.some((item) => same(item, choices[index]?.value))));
  };
  write(own(property, 'default'));
  const read = (): unknown[] | undefined => {
    const chosen = boxes.flatMap((box, index) => (box.checked ? [choices[index]?.value] : []));
    return chosen.length === 0 ? undefined : chosen;
  };
  return {
    node,
    read,
    write,
    problem: () => {
      const count = read()?.length ?? 0;
      const min = number(own(property, 'minItems'));
      const max = number(own(property, 'maxItems'));
      if (min !== undefined && count < min) return `needs at least ${min} choice${min === 1 ? '' : 's'}`;
      if (max !== undefined && count > max) return `takes at most ${max} choice${max === 1 ? '' : 's'}`;
      return undefined;
    },
  };
}

function checkbox(name: string, property: Record<string, unknown>, id: string): Control {
  const node = element('input');
  node.type = 'checkbox';
  node.name = name;
  node.id = id;
  const write = (value: unknown): void => void (node.checked = value === true);
  write(own(property, 'default'));
  return { node, read: () => node.checked, write, problem: () => undefined };
}

function numberInput(name: string, property: Record<string, unknown>, type: 'number' | 'integer', id: string, required: boolean): Control {
  const node = input(name, 'number', id, required);
  const min = number(own(property, 'minimum'));
  const max = number(own(property, 'maximum'));
  const step = number(own(property, 'multipleOf'));
  if (min !== undefined) node.min = String(min);
  if (max !== undefined) node.max = String(max);
  // Without a step the browser takes 1, and would call 3.14 wrong.
  node.step = step !== undefined && step > 0 ? String(step) : type === 'integer' ? '1' : 'any';
  const write = (value: unknown): void => void (node.value = typeof value === 'number' && Number.isFinite(value) ? String(value) : '');
  write(own(property, 'default'));
  return {
    node,
    read: () => (node.value === '' ? (node.validity.badInput ? Number.NaN : undefined) : Number(node.value)),
    write,
    problem: () => {
      const value = Number(node.value);
      if (node.validity.badInput || !Number.isFinite(value)) return type === 'integer' ? 'must be an integer' : 'must be a number';
      if (type === 'integer' && !Number.isInteger(value)) return 'must be an integer';
      if (min !== undefined && value < min) return `must be at least ${min}`;
      if (max !== undefined && value > max) return `must be at most ${max}`;
      if (node.validity.stepMismatch) return `must be a multiple of ${node.step}`;
      return undefined;
    },
  };
}

/** The input type of each string format the browser has a control for. */
const FORMAT_INPUTS: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'datetime-local' };
const FORMAT_RULES: Record<string, string> = { email: 'must be an email address', url: 'must be a URL (with its scheme)', date: 'must be a date', 'datetime-local': 'must be a date and time' };

function textInput(name: string, property: Record<string, unknown>, id: string, required: boolean): Control {
  const format = text(own(property, 'format'));
  const kind = format !== undefined && Object.hasOwn(FORMAT_INPUTS, format) ? (FORMAT_INPUTS[format] as string) : 'text';
  const node = input(name, kind, id, required);
  if (kind === 'datetime-local') node.step = '1';
  const minLength = number(own(property, 'minLength'));
  const maxLength = number(own(property, 'maxLength'));
  if (maxLength !== undefined && maxLength >= 0) node.maxLength = Math.min(maxLength, 2 ** 31 - 1);
  const write = (value: unknown): void => {
    if (typeof value !== 'string' && typeof value !== 'number') return void (node.value = '');
    node.value = kind === 'datetime-local' ? localDateTime(String(value)) : String(value);
  };
  write(own(property, 'default'));
  return {
    node,
    // A date-time goes as RFC 3339 (UTC), as JSON Schema's format has it; the browser's control has no zone.
    read: () => (node.value === '' ? undefined : kind === 'datetime-local' ? utcDateTime(node.value) : node.value),
    write,
    problem: () => {
      if (node.validity.typeMismatch || node.validity.badInput) return FORMAT_RULES[kind] ?? 'is not valid';
      const length = Array.from(node.value).length;
      if (minLength !== undefined && length < minLength) return `must be at least ${minLength} characters long`;
      if (maxLength !== undefined && length > maxLength) return `must be at most ${maxLength} characters long`;
      return undefined;
    },
  };
}

function jsonText(name: string, property: Record<string, unknown>, type: 'object' | 'array', id: string, required: boolean): Control {
  const node = element('textarea');
  node.name = name;
  node.id = id;
  node.required = required;
  node.rows = 3;
  node.placeholder = type === 'array' ? 'a JSON array' : 'a JSON object';
  const write = (value: unknown): void => {
    const json = value === undefined ? '' : JSON.stringify(value, null, 2);
    node.value = json.length > MAX_DEFAULT_JSON ? '' : json;
  };
  write(own(property, 'default'));
  const parsed = (): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(node.value) };
    } catch {
      return { ok: false };
    }
  };
  return {
    node,
    read: () => {
      if (node.value.trim() === '') return undefined;
      const value = parsed();
      return value.ok ? value.value : node.value;
    },
    write,
    problem: () => {
      const value = parsed();
      if (!value.ok) return `is not valid JSON (${type === 'array' ? 'an array' : 'an object'} is wanted)`;
      if (type === 'array' ? !Array.isArray(value.value) : !isRecord(value.value)) return `must be a JSON ${type === 'array' ? 'array' : 'object'}`;
      return undefined;
    },
  };
}

function input(name: string, type: string, id: string, required: boolean): HTMLInputElement {
  const node = element('input');
  node.type = type;
  node.name = name;
  node.id = id;
  node.required = required;
  return node;
}

function hint(words: string): HTMLElement {
  const node = element('small', words);
  node.className = 'hint';
  return node;
}

/** The property's type: `type`, or the first non-null of a list of types. */
function typeOf(property: Record<string, unknown>): string | undefined {
  const type = own(property, 'type');
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.slice(0, 8).find((one): one is string => typeof one === 'string' && one !== 'null');
  return undefined;
}

/** `YYYY-MM-DDTHH:MM:SS` in local time, as a datetime-local control shows it; '' for a value that is no date. */
function localDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function utcDateTime(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString().replace(/\.000Z$/, 'Z');
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));
}

function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function cut(words: string): string {
  return words.length > MAX_TEXT ? `${words.slice(0, MAX_TEXT)}…` : words;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function own(object: unknown, key: string): unknown {
  return isRecord(object) && Object.hasOwn(object, key) ? object[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
