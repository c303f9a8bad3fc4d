import { element } from './element.js';

/** A JSON Schema property as the form reads it; anything else in it is ignored. */
interface Property {
  type?: unknown;
  title?: unknown;
  description?: unknown;
  default?: unknown;
}

/** The most fields one form builds: a schema is the server's, and may be huge. */
const MAX_FIELDS = 200;

/**
 * A form for a JSON Schema object, one input per property (a checkbox for a
 * boolean, a number input for a number or integer, text for the rest, and
 * JSON text for an object or array), and the reader of its values: the
 * properties left empty are left out. Property names and titles are shown
 * as text.
 */
export function schemaForm(schema: unknown): [HTMLElement, () => Record<string, unknown>] {
  const form = element('div');
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const readers: Array<() => [string, unknown]> = [];
  for (const [name, raw] of Object.entries(properties).slice(0, MAX_FIELDS)) {
    const property: Property = isRecord(raw) ? raw : {};
    const label = element('label', typeof property.title === 'string' ? property.title : name);
    const input = element('input');
    input.name = name;
    const id = `field-${readers.length}`;
    input.id = id;
    label.htmlFor = id;
    if (property.type === 'boolean') {
      input.type = 'checkbox';
      input.checked = property.default === true;
      readers.push(() => [name, input.checked]);
    } else if (property.type === 'object' || property.type === 'array') {
      input.type = 'text';
      input.placeholder = property.type === 'array' ? 'a JSON array' : 'a JSON object';
      readers.push(() => [name, input.value === '' ? undefined : parsedOrText(input.value)]);
    } else {
      const numeric = property.type === 'number' || property.type === 'integer';
      input.type = numeric ? 'number' : 'text';
      if (property.default !== undefined && typeof property.default !== 'object') input.value = String(property.default);
      readers.push(() => [name, input.value === '' ? undefined : numeric ? Number(input.value) : input.value]);
    }
    if (typeof property.description === 'string' && input.type !== 'checkbox') input.placeholder ||= property.description;
    form.append(label, input);
  }
  return [form, () => Object.fromEntries(readers.map((read) => read()).filter(([, value]) => value !== undefined))];
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
