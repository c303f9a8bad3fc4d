import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { gatewayCommand, officialClient } from './gateway-support.js';

// What the gateway serves of each tool, prompt and resource: not only what a
// model is shown (name, description, parameters) but the title, icons
// (checked), outputSchema, annotations and _meta its server declared, as a
// real host (the official client v2, both eras) lists them.

const root = join(__dirname, '..', '..');
const config = { mcpServers: { ic: { command: process.execPath, args: [join(root, 'spec/fixtures/icons-server.mjs')] } } };
// Hints count only for a server the user trusts: this one is.
const command = gatewayCommand(config, [{ tool: '*', decision: 'allow' }], { trustAnnotations: true });

describe.each(['modern', 'legacy'] as const)('the gateway keeps what servers declare, to the official client (%s)', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await officialClient(era, command);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it('keeps title, checked icons, outputSchema, annotations and _meta of a tool, and its structuredContent', async () => {
    const { tools } = await client.listTools();
    const painted = tools.find((tool) => tool.name === 'ic_painted') as Record<string, unknown> | undefined;
    expect(painted).toMatchObject({
      // Served as ic_painted, not painted: the titles say so, so no upstream can pass its tool off as another's.
      title: 'Painted tool (ic_painted)',
      outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      annotations: { title: 'Painted (ic_painted)', readOnlyHint: true },
      _meta: { 'example.com/colour': 'teal' },
    });
    expect(painted?.icons).toEqual([
      { src: 'https://example.com/good.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
      { src: expect.stringMatching(/^data:image\/png;base64,/), sizes: ['any'] },
    ]);
    expect(JSON.stringify(tools)).not.toContain('javascript:');
    const result = await client.callTool({ name: 'ic_painted', arguments: {} });
    expect(result.structuredContent).toEqual({ n: 1 });
  });

  it('keeps title, checked icons and _meta of prompts, resources and templates', async () => {
    const [{ prompts }, { resources }, { resourceTemplates }] = [await client.listPrompts(), await client.listResources(), await client.listResourceTemplates()];
    expect(prompts[0]).toMatchObject({ title: 'Greeting', _meta: { 'example.com/colour': 'red' }, icons: expect.any(Array) });
    expect(resources[0]).toMatchObject({ title: 'The letter a', icons: expect.any(Array) });
    expect(resourceTemplates[0]?.icons).toHaveLength(2);
    expect(JSON.stringify([prompts, resources, resourceTemplates])).not.toMatch(/javascript:|text\/html|http:\/\//);
  });
});

