import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { hostileServer } from '../support/hostile-corpus.js';
import { fixture } from '../support/servers.js';

// Icons on everything a server lists, and on the server itself, from the
// official server SDK (v2) in both eras: only https: and data: image icons
// reach the caller, bounded in size and count, each with its checked members only.

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
});

const GOOD_PAINTED = [
  { src: 'https://example.com/good.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
  { src: expect.stringMatching(/^data:image\/png;base64,iVBOR/), sizes: ['any'] },
];

describe.each([
  ['2026-07-28', {}],
  ['2025-11-25', { era: 'legacy' as const }],
])('icons, %s', (version, eraOption) => {
  it('2025-11-25 basic, icons, Security considerations: MUST reject unsafe schemes (javascript:, file:, http:, data: that is no image), on tools, prompts, resources, templates and serverInfo', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({ ...fixture('icons-server.mjs'), ...eraOption, onWarn: (message) => warnings.push(message) });
    clients.push(mcp);
    const description = await firstValueFrom(mcp.describe());
    expect(description.protocolVersion).toBe(version);
    expect(description.serverInfo?.icons).toEqual([{ src: 'https://example.com/good-server.svg', mimeType: 'image/svg+xml' }]);

    const tools = await firstValueFrom(mcp.listTools());
    const painted = tools.find((tool) => tool.name === 'painted');
    expect(painted?.icons).toEqual(GOOD_PAINTED);
    expect(painted).toMatchObject({ title: 'Painted tool', annotations: { readOnlyHint: true } });
    // 10,000 icons: the first eight are kept.
    expect(tools.find((tool) => tool.name === 'crowded')?.icons).toHaveLength(8);
    expect(tools.find((tool) => tool.name === 'bare')).not.toHaveProperty('icons');

    expect((await firstValueFrom(mcp.listPrompts()))[0]?.icons).toEqual(GOOD_PAINTED);
    expect((await firstValueFrom(mcp.listResources()))[0]?.icons).toEqual(GOOD_PAINTED);
    expect((await firstValueFrom(mcp.listResourceTemplates()))[0]?.icons).toEqual(GOOD_PAINTED);

    const seen = JSON.stringify([description.serverInfo, tools, await firstValueFrom(mcp.listPrompts())]);
    for (const bad of ['javascript:', 'file:', 'http://', 'text/html', 'secret', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'dropped member', 'huge']) expect(seen).not.toContain(bad);

    const iconWarnings = warnings.filter((warning) => warning.includes('icon'));
    expect(iconWarnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^serverInfo: dropped 1 icon from 1 item \(first: the server: the "javascript:" scheme\)/),
        expect.stringMatching(/^tools\/list: dropped 9999 icons from 2 items \(first: "painted": the "javascript:" scheme\)/),
        expect.stringMatching(/^prompts\/list: dropped 7 icons from 1 item/),
      ]),
    );
  });
});

describe('icons from a hostile server', () => {
  it('keeps none that are not a list, no "__proto__" icon, no script or huge data:, and at most eight of 10,000', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({ ...hostileServer, args: [...hostileServer.args, '--case', 'hostile-icons'], onWarn: (message) => warnings.push(message) });
    clients.push(mcp);
    for (const list of [await firstValueFrom(mcp.listTools()), await firstValueFrom(mcp.listPrompts()), await firstValueFrom(mcp.listResources()), await firstValueFrom(mcp.listResourceTemplates())]) {
      const [asString, crowded, proto] = list as Array<Record<string, unknown>>;
      expect(asString).not.toHaveProperty('icons');
      expect(crowded?.icons).toEqual(Array.from({ length: 8 }, () => ({ src: 'https://x.example/ok.png' })));
      expect(proto).not.toHaveProperty('icons');
      expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    }
    expect(warnings.filter((warning) => warning.includes('icons'))).toHaveLength(4);
    expect(warnings.join('\n')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
