import { rmSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import type { Client } from '@modelcontextprotocol/client';
import { McpClient } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { gatewayCommand, officialClient, RULES, upstreamConfig } from './gateway-support.js';

// What upstream servers announce reaches the hosts of the gateway
// (spec/fixtures/gateway-server.mjs over stdio, in front of the SDK fixture).

describe('upstream notifications through the gateway', () => {
  const { config, folder } = upstreamConfig();
  const command = gatewayCommand({ mcpServers: { fx: config.mcpServers.fx } }, RULES, { logLevel: 'info' });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("tells a 2026-07-28 host (rxmcp) that an upstream server's tools changed, on its listen stream", async () => {
    const mcp = McpClient.connectStdio(command);
    try {
      await firstValueFrom(mcp.listTools());
      const changed: string[] = [];
      const listening = mcp.listen({ toolsListChanged: true }).subscribe((notification) => changed.push(notification.method));
      // The listen stream is open once the gateway acknowledged it; a call after that is announced on it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await firstValueFrom(mcp.callTool('fx_add-tool', { name: 'grown' }));
      await eventually(() => changed.includes('notifications/tools/list_changed'), 10_000);
      listening.unsubscribe();
      expect((await firstValueFrom(mcp.listTools({ refresh: true }))).map((tool) => tool.name)).toContain('fx_grown');
    } finally {
      await mcp.close();
    }
  }, 30_000);

  it("tells a 2025-11-25 host (the official client) of a list change, and passes it the upstream server's logs", async () => {
    const client: Client = await officialClient('legacy', command);
    try {
      const methods: string[] = [];
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/tools/list_changed', async () => void methods.push('tools'));
      client.setNotificationHandler('notifications/message', async (notification) => void logs.push(notification.params));
      await client.listTools();
      await client.callTool({ name: 'fx_count', arguments: { steps: 2 } });
      await client.callTool({ name: 'fx_add-tool', arguments: { name: 'sprout' } });
      await eventually(() => methods.includes('tools') && logs.length >= 2, 10_000);
      expect(logs).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'info', logger: 'fx/counter', data: 'step 1' })]));
    } finally {
      await client.close();
    }
  }, 30_000);
});

