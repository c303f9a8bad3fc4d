import type { ToolProvider } from '../../../src/tools/bridge.js';
import { toolsForAnthropic } from '../../../src/formats/anthropic-messages.js';
import { openAIParameters } from '../../../src/formats/openai-strict.js';

// What OpenAI's function calling and Anthropic's input_schema refuse at the
// root of a tool's schema, read through the function the OpenAI formats
// declare parameters with (strict or not, and the strict fallback).

describe('the root of a declared schema', () => {
  it('declares an object where the schema has no type, and items where an array has none, leaving a schema that fits as the very object sent', () => {
    const fits = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } }, required: ['tags'] };
    expect(openAIParameters(fits, {}).parameters).toBe(fits);
    const schema = { properties: { x: { type: 'number' }, loose: { type: 'array' }, deep: { type: 'object', properties: { list: { type: ['array', 'null'] } } } } };
    expect(openAIParameters(schema, {})).toEqual({
      parameters: {
        type: 'object',
        properties: { x: { type: 'number' }, loose: { type: 'array', items: {} }, deep: { type: 'object', properties: { list: { type: ['array', 'null'], items: {} } } } },
      },
      strict: false,
    });
    // The server's schema itself is left alone.
    expect(schema.properties.loose).toEqual({ type: 'array' });
  });

  it('merges a root union of objects into one object, required only where every branch requires it, the union said in the description', () => {
    const schema = {
      description: 'Find a person',
      anyOf: [
        { type: 'object', properties: { email: { type: 'string' }, scope: { const: 'work' } }, required: ['email', 'scope'] },
        { type: 'object', properties: { phone: { type: 'string' }, scope: { const: 'home' } }, required: ['phone', 'scope'] },
      ],
    };
    const { parameters } = openAIParameters(schema, {});
    expect(parameters).toEqual({
      type: 'object',
      properties: { email: { type: 'string' }, scope: { anyOf: [{ const: 'work' }, { const: 'home' }] }, phone: { type: 'string' } },
      required: ['scope'],
      // The union is said in the description, cut like every folded note.
      description: `Find a person (the arguments match one of: ${JSON.stringify(schema.anyOf).slice(0, 200)}…)`,
    });
  });

  it('keeps the properties beside a root union of requirements, and gives strict mode an object it can take', () => {
    const schema = { type: 'object', properties: { email: { type: 'string' }, phone: { type: 'string' } }, anyOf: [{ required: ['email'] }, { required: ['phone'] }] };
    expect(openAIParameters(schema, { strict: true })).toEqual({
      parameters: {
        type: 'object',
        properties: { email: { type: ['string', 'null'] }, phone: { type: ['string', 'null'] } },
        required: ['email', 'phone'],
        additionalProperties: false,
        description: '(the arguments match one of: [{"required":["email"]},{"required":["phone"]}])',
      },
      strict: true,
    });
  });

  it('gives the strict fallback (strict: false) the same fitted root', () => {
    const schema = { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } }, rest: { type: 'array' } }, allOf: [{ required: ['env'] }], enum: [{}] };
    expect(openAIParameters(schema, { strict: true })).toEqual({
      parameters: {
        type: 'object',
        properties: { env: { type: 'object', additionalProperties: { type: 'string' } }, rest: { type: 'array', items: {} } },
        required: ['env'],
        description: '(the arguments match all of: [{"required":["env"]}]; enum: [{}])',
      },
      strict: false,
    });
  });

  it('declares for Anthropic an object without the root union it refuses', async () => {
    // Only the declarations are read here; the calls go through real servers in the corpus spec.
    const provider: ToolProvider = {
      toolsForLlm: async () => [
        { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { email: { type: 'string' }, phone: { type: 'string' } }, oneOf: [{ required: ['email'] }, { required: ['phone'] }] } } },
      ],
      executeToolCalls: async () => [],
    };
    expect((await toolsForAnthropic(provider))[0]?.input_schema).toEqual({
      type: 'object',
      properties: { email: { type: 'string' }, phone: { type: 'string' } },
      description: '(the arguments match one of: [{"required":["email"]},{"required":["phone"]}])',
    });
  });
});
