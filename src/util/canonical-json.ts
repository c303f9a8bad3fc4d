// Two lists of the same tools, one from a file and one from a live server,
// must compare equal whatever order their keys were written in; and a
// schema nested thousands deep must not exhaust the stack, so the value is
// walked with a stack of its own.

/** A piece of work: text to write as is, or a value to write as JSON. */
type Step = { text: string } | { value: unknown };

/**
 * JSON text for parsed JSON data (no cycles) with every object's keys in
 * sorted order: equal data gives equal text, whatever order its keys came
 * in. Members whose value JSON cannot hold (`undefined`, functions) are
 * left out, and such array items written `null`, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const steps: Step[] = [{ value }];
  while (steps.length > 0) {
    const step = steps.pop() as Step;
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const current = step.value;
    if (Array.isArray(current)) {
      const next: Step[] = [{ text: '[' }];
      for (let i = 0; i < current.length; i++) {
        if (i > 0) next.push({ text: ',' });
        const item: unknown = current[i];
        next.push({ value: item === undefined || typeof item === 'function' ? null : item });
      }
      next.push({ text: ']' });
      for (let i = next.length - 1; i >= 0; i--) steps.push(next[i] as Step);
    } else if (typeof current === 'object' && current !== null) {
      const members = current as Record<string, unknown>;
      const keys = Object.keys(members)
        .filter((key) => members[key] !== undefined && typeof members[key] !== 'function')
        .sort();
      const next: Step[] = [{ text: '{' }];
      keys.forEach((key, i) => {
        next.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` });
        next.push({ value: members[key] });
      });
      next.push({ text: '}' });
      for (let i = next.length - 1; i >= 0; i--) steps.push(next[i] as Step);
    } else {
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}
