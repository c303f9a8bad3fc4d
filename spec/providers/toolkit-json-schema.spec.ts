import { z } from 'zod';
import { McpClientError, Toolkit } from '../../src/index.js';

// Toolkit publishes the JSON Schema the official server SDK publishes for a
// zod input, asked of the user's schema itself, so that importing rxmcp
// loads no zod of its own (PERFORMANCE.md, "Fourth pass").

describe("a Toolkit tool's input schema", () => {
  it('is what z.toJSONSchema gives for the input, with type object', () => {
    const input = z.object({ city: z.string().describe('Where'), days: z.number().int().min(1).default(3), units: z.enum(['c', 'f']).optional() });
    const [tool] = new Toolkit({ name: 'k' }).tool('forecast', { input }, () => ({ content: [] })).tools;
    expect(tool?.inputSchema).toEqual({ type: 'object', ...z.toJSONSchema(input, { io: 'input' }) });
    expect(tool?.inputSchema).toMatchObject({ type: 'object', required: ['city'], properties: { days: { default: 3 } } });
  });

  it('is refused, naming the tool, when the schema cannot give one (zod before 4.2)', () => {
    const old = z.object({ a: z.string() });
    Object.defineProperty(old, 'toJSONSchema', { value: undefined });
    expect(() => new Toolkit({ name: 'k' }).tool('t', { input: old }, () => ({ content: [] }))).toThrow(McpClientError);
    expect(() => new Toolkit({ name: 'k' }).tool('t', { input: old }, () => ({ content: [] }))).toThrow('tool "t" needs a zod 4.2 (or later) object schema');
  });

  it('is refused, naming the tool, when the input is not a zod schema, its toJSONSchema throws, or gives no object', () => {
    const add = (input: unknown) => () => new Toolkit({ name: 'k' }).tool('t', { input: input as z.ZodObject }, () => ({ content: [] }));
    expect(add({ toJSONSchema: () => ({ type: 'object' }) })).toThrow('tool "t" needs a zod 4.2 (or later) object schema');
    const throwing = z.object({ a: z.string() });
    Object.defineProperty(throwing, 'toJSONSchema', { value: () => { throw new Error('unrepresentable'); } });
    expect(add(throwing)).toThrow('tool "t": its input schema cannot be written as JSON Schema: unrepresentable');
    const stringly = z.object({ a: z.string() });
    Object.defineProperty(stringly, 'toJSONSchema', { value: () => 'abc' });
    expect(add(stringly)).toThrow('tool "t": its input schema\'s toJSONSchema gave something that is not an object');
  });

  it('turns an input schema whose check throws into the tool\'s error result, not a rejected call', async () => {
    const input = z.object({ a: z.string() });
    Object.defineProperty(input, 'safeParse', { value: () => { throw new Error('check broke'); } });
    const kit = new Toolkit({ name: 'k' }).tool('t', { input }, () => ({ content: [] }));
    await expect(kit.callTool('t', { a: 'x' })).resolves.toEqual({ content: [{ type: 'text', text: 'check broke' }], isError: true });
  });
});
