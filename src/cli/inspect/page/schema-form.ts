import { element } from './element.js';
import { schemaField, type SchemaField } from './schema-field.js';

/** A field whose value breaks the schema: its name, and the rule in words. */
export interface FieldProblem {
  field: string;
  rule: string;
}

/** Options of `schemaForm`. */
export interface SchemaFormOptions {
  /** Adds a "Raw JSON" switch that edits the whole object as JSON text (a tool's arguments). */
  rawJson?: boolean;
}

/**
 * Checks the form: each field against its property, then `check` (the
 * client's own rules, say) on the values; the first problem is shown beside
 * its field (or under the form) and returned, `undefined` when there is none.
 */
export type ValidateForm = (check?: (values: Record<string, unknown>) => FieldProblem | undefined) => FieldProblem | undefined;

/** The most fields one form builds: a schema is the server's, and may be huge. */
const MAX_FIELDS = 200;
/** What a problem of the raw JSON is filed under. */
const RAW = '(raw JSON)';

/**
 * A form for a JSON Schema object, one field per property: a `<select>` for
 * a single choice (`enum`, with the legacy `enumNames`, or `oneOf` of
 * `{ const, title }`), checkboxes for a multi-select (`type: 'array'` whose
 * `items` list choices, read as an array), a checkbox for a boolean, a
 * number input (minimum, maximum, integer step) for a number or integer, an
 * email, URL, date or date-time input for those string formats, text for
 * other strings, and JSON text for objects and other arrays. Defaults are
 * filled in, required fields marked. Each control is named after its
 * property (`input[name=FIELD]`); names, titles and choices are shown as text.
 *
 * @returns the form, the reader of its values (the properties left empty are left out), and its check
 */
export function schemaForm(schema: unknown, options: SchemaFormOptions = {}): [HTMLElement, () => Record<string, unknown>, ValidateForm] {
  const form = element('div');
  form.className = 'schema-form';
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(isRecord(schema) && Array.isArray(schema.required) ? schema.required.slice(0, MAX_FIELDS * 5).filter((name) => typeof name === 'string') : []);
  const fields: SchemaField[] = Object.entries(properties)
    .slice(0, MAX_FIELDS)
    .map(([name, property]) => schemaField(name, property, required.has(name)));
  const fieldsBox = element('div');
  fieldsBox.append(...fields.map((field) => field.box));
  const formNote = element('p');
  formNote.className = 'field-problem';
  formNote.hidden = true;

  const readFields = (): Record<string, unknown> => Object.fromEntries(fields.map((field) => [field.name, field.read()] as const).filter(([, value]) => value !== undefined));
  let raw: HTMLTextAreaElement | undefined;
  const rawObject = (): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(raw?.value ?? '');
      return isRecord(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const rawOn = (): boolean => raw !== undefined && !raw.hidden;

  if (options.rawJson) {
    const text = element('textarea');
    raw = text;
    text.className = 'raw-json';
    text.rows = 8;
    text.hidden = true;
    text.setAttribute('aria-label', 'arguments as JSON');
    const toggle = element('input');
    toggle.type = 'checkbox';
    toggle.className = 'raw-toggle';
    const switchLine = element('label');
    switchLine.className = 'choice';
    switchLine.append(toggle, element('span', 'Raw JSON'));
    toggle.onchange = () => {
      if (toggle.checked) {
        text.value = JSON.stringify(readFields(), null, 2);
      } else {
        const value = rawObject();
        if (value === undefined) {
          toggle.checked = true;
          return show({ field: RAW, rule: 'must be a JSON object before going back to the fields' });
        }
        for (const field of fields) field.write(Object.hasOwn(value, field.name) ? value[field.name] : undefined);
      }
      text.hidden = !toggle.checked;
      fieldsBox.hidden = toggle.checked;
      show(undefined);
    };
    form.append(switchLine, text);
  }
  form.append(fieldsBox, formNote);

  const read = (): Record<string, unknown> => (rawOn() ? (rawObject() ?? {}) : readFields());

  const show = (problem: FieldProblem | undefined): void => {
    for (const field of fields) field.mark(undefined);
    formNote.hidden = true;
    if (problem === undefined) return;
    const field = rawOn() ? undefined : fields.find((one) => one.name === problem.field);
    if (field) {
      field.mark(problem.rule);
      field.box.querySelector<HTMLElement>('input, select, textarea')?.focus();
    } else {
      formNote.textContent = `${problem.field} ${problem.rule}`;
      formNote.hidden = false;
    }
  };

  const validate: ValidateForm = (check) => {
    let problem: FieldProblem | undefined;
    if (rawOn()) {
      if (rawObject() === undefined) problem = { field: RAW, rule: 'must be a JSON object' };
    } else {
      for (const field of fields) {
        const rule = field.problem();
        if (rule !== undefined) {
          problem = { field: field.name, rule };
          break;
        }
      }
    }
    problem ??= check?.(read());
    show(problem);
    return problem;
  };

  return [form, read, validate];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
