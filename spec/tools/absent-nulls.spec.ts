import { dropAbsentNulls } from '../../src/tools/absent-nulls.js';

const issue = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    body: { type: 'string' },
    milestone: { type: ['string', 'null'] },
    parent: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    priority: { enum: ['low', 'high', null] },
    anything: {},
    assignee: { type: 'object', properties: { login: { type: 'string' }, team: { type: 'string' } } },
    tasks: { type: 'array', items: { $ref: '#/$defs/Task' } },
  },
  $defs: { Task: { type: 'object', properties: { text: { type: 'string' }, done: { type: 'boolean' } } } },
};

describe('dropping the nulls that stand for "not given"', () => {
  it('drops a null wherever the schema refuses null, at every level, and keeps it wherever the schema takes it', () => {
    const args = {
      title: 'Crash',
      body: null,
      milestone: null,
      parent: null,
      priority: null,
      anything: null,
      assignee: { login: 'ada', team: null },
      tasks: [{ text: 'repro', done: null }, { text: 'fix', done: true }],
      unknown: null,
    };
    expect(dropAbsentNulls(args, issue)).toEqual({
      title: 'Crash',
      milestone: null,
      parent: null,
      priority: null,
      anything: null,
      assignee: { login: 'ada' },
      tasks: [{ text: 'repro' }, { text: 'fix', done: true }],
      unknown: null,
    });
  });

  it('leaves the arguments it was given untouched, and returns them as they are when there is nothing to drop', () => {
    const args = { title: 'Crash', assignee: { login: 'ada', team: null } };
    const copy = structuredClone(args);
    const result = dropAbsentNulls(args, issue);
    expect(args).toEqual(copy);
    expect(result.assignee).not.toBe(args.assignee);
    const clean = { title: 'Crash', tasks: [{ text: 'repro' }] };
    expect(dropAbsentNulls(clean, issue)).toBe(clean);
  });

  it('reads an optional nested object written as anyOf with null, and a single allOf', () => {
    const schema = {
      type: 'object',
      properties: {
        owner: { anyOf: [{ $ref: '#/definitions/Owner' }, { type: 'null' }] },
        place: { allOf: [{ type: 'object', properties: { city: { type: 'string' } } }] },
      },
      definitions: { Owner: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(dropAbsentNulls({ owner: { name: null }, place: { city: null } }, schema)).toEqual({ owner: {}, place: {} });
    expect(dropAbsentNulls({ owner: null }, schema)).toEqual({ owner: null });
  });

  it('keeps a null when the schema cannot be read to a conclusion: a network reference, a missing one, a loop', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: 'https://127.0.0.1:9/a.json' }, b: { $ref: '#/$defs/Missing' }, c: { $ref: '#/$defs/Loop' } },
      $defs: { Loop: { $ref: '#/$defs/Loop' } },
    };
    expect(dropAbsentNulls({ a: null, b: null, c: null }, schema)).toEqual({ a: null, b: null, c: null });
  });

  it('treats __proto__ as an ordinary member name, in the arguments and in the schema', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object","properties":{"x":{"type":"string"}}},"y":{"type":"string"}}}');
    const args = JSON.parse('{"__proto__":{"x":null,"polluted":true},"y":null,"constructor":null}');
    const result = dropAbsentNulls(args, schema);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.keys(result)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops at a bounded depth in arguments and schemas nested 100,000 levels', () => {
    const levels = 100_000;
    const schema = JSON.parse('{"type":"object","properties":{"p":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels));
    const args = JSON.parse('{"p":'.repeat(levels) + 'null' + '}'.repeat(levels));
    expect(dropAbsentNulls(args, schema)).toBe(args);
    const shallow = JSON.parse('{"p":'.repeat(5) + 'null' + '}'.repeat(5));
    expect(dropAbsentNulls(shallow, schema)).toEqual(JSON.parse('{"p":'.repeat(4) + '{}' + '}'.repeat(4)));
  });
});
