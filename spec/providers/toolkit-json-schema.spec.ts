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
});
