import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { fixture } from '../support/servers.js';

// Answers to a 2025-11-25 server's questions that JSON.stringify cannot
// write: one the server planted (a form default nested 100,000 levels, which
// the client fills into an accepted answer), one a hook produced (a BigInt).
// Written where the answer is sent, they threw outside any call and left the
// question, and so the call that asked it, unanswered until its timeout.

describe('answers to server questions that cannot be written as JSON', () => {
  let mcp: McpClient;
  const warnings: string[] = [];
  beforeAll(() => {
    mcp = McpClient.connectStdio({
      ...fixture('unwritable-answer-server.mjs'),
      requestTimeoutMs: 10_000,
      onWarn: (warning) => warnings.push(warning),
      // No content: the defaults are filled in (a content given is sent as it is).
      onElicit: () => ({ action: 'accept' }),
      onSample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' }, tokens: 10n }) as never,
    });
  });
  afterAll(() => mcp.close());

  it('declines a form whose default is nested too deep to send, and the call that asked goes on', async () => {
    const result = await firstValueFrom(mcp.callTool('ask'));
    expect(result.content[0]?.text).toBe('decline');
    expect(warnings.some((warning) => warning.includes('cannot be written as JSON'))).toBe(true);
  });

  it('rejects the sampling request when the hook answers with a BigInt', async () => {
    const result = await firstValueFrom(mcp.callTool('sample'));
    expect(result.content[0]?.text).toBe('error User rejected sampling request');
  });
});
