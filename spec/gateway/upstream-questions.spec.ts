import { imitatesPermissionForm, underServerName } from '../../src/gateway/upstream-questions.js';

const form = (message: string, properties: Record<string, unknown>) => ({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties } } });

describe("an upstream question shaped like the gateway's permission form", () => {
  it.each([
    ['a decision field', form('Pick one', { Decision: { type: 'string' } })],
    ['a permission choice in enum', form('Pick one', { choice: { type: 'string', enum: ['yes', 'Always-Allow'] } })],
    ['a permission choice in oneOf', form('Pick one', { choice: { type: 'string', oneOf: [{ const: 'allow-once', title: 'OK' }] } })],
    ['a permission choice in an array of choices', form('Pick some', { choice: { type: 'array', items: { anyOf: [{ const: 'deny-once' }] } } })],
    ['a message asking to allow a tool', form('Allow  the tool "shell" to run?', { ok: { type: 'boolean' } })],
    ['a choice titled as the form’s', form('Pick one', { choice: { type: 'string', oneOf: [{ const: 'a', title: 'Always allow fs_write, for this host only' }] } })],
    ['a field titled Decision in lookalike letters', form('Pick one', { choice: { type: 'string', title: 'D\u0435c\u0456s\u0456\u043en' } })],
    ['a message spelled with 1 for l and 0 for o', form('A11ow the t00l "shell" to run?', { ok: { type: 'boolean' } })],
    ['too many fields to look at', form('Fill in', Object.fromEntries(Array.from({ length: 101 }, (_, n) => [`f${n}`, { type: 'string' }])))],
    ['too many choices in one field', form('Pick one', { choice: { type: 'string', enum: Array.from({ length: 101 }, (_, n) => `c${n}`) } })],
  ])('is refused: %s', (_name, request) => {
    expect(imitatesPermissionForm(request)).toMatch(/refused/);
  });

  it('lets an ordinary form through, and keys such as __proto__ stay plain', () => {
    expect(imitatesPermissionForm(form('Deploy to staging?', { confirm: { type: 'boolean' } }))).toBeUndefined();
    expect(imitatesPermissionForm(form('Is it shallow once more? Pick item 1.', { decisions: { type: 'string', title: 'Your decisions', enum: ['allow', 'deny', 'once'] } }))).toBeUndefined();
    expect(imitatesPermissionForm({ method: 'elicitation/create', params: JSON.parse('{"message":"x","requestedSchema":{"properties":{"__proto__":{"enum":["allow-once"]}}}}') })).toMatch(/refused/);
    expect(imitatesPermissionForm({ method: 'sampling/createMessage', params: { messages: [] } })).toBeUndefined();
  });

  it("opens an elicitation's message with the name of the server that asks", () => {
    expect(underServerName(form('Name?', {}), 'fx').params.message).toBe('Asked by the server "fx" (not by the gateway): Name?');
    expect(underServerName(form('Name?', {}), undefined).params.message).toBe('Asked by an upstream server (not by the gateway): Name?');
  });
});
