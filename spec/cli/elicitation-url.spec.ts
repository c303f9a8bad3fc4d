import { PassThrough } from 'node:stream';
import { askToOpenUrl } from '../../src/cli/elicitation-url.js';

// The CLI's own check of a page to open, apart from the client's: whatever
// reaches the hook, a URL that fails checkElicitationUrl is never offered nor opened.

async function asked(params: Record<string, unknown>): Promise<{ answer: unknown; shown: string; opened: string[] }> {
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => (shown += chunk));
  const opened: string[] = [];
  const answer = await askToOpenUrl(params, { input: new PassThrough(), output, interactive: true, open: (url) => opened.push(url) });
  return { answer, shown, opened };
}

describe('askToOpenUrl', () => {
  it.each([
    ['javascript:alert(1)', "scheme javascript: is not https"],
    ['data:text/html,hi', 'scheme data: is not https'],
    ['http://example.com/plain', 'plain http to another machine'],
    ['https://bank.example@evil.example/', 'user name or password'],
    ['https://evil.example/\u001b]8;;x\u0007', 'control characters'],
    [42, 'the URL is missing'],
  ])('2025-11-25 client/elicitation, Safe URL Handling: shows %j as refused, declines without asking, opens nothing', async (url, reason) => {
    const { answer, shown, opened } = await asked({ mode: 'url', message: 'Go \u001b[31mhere', url, elicitationId: 'e' });
    expect(answer).toEqual({ action: 'decline' });
    expect(opened).toEqual([]);
    expect(shown).toContain(`refused: ${typeof url === 'string' ? 'the URL' : 'the URL is missing'}`);
    expect(shown).toContain(reason);
    expect(shown).not.toContain('[y/N]');
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('2025-11-25 client/elicitation, Safe URL Handling: marks every line of the message as the server\'s, so it cannot draw a URL and Host of its own', async () => {
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => (shown += chunk));
    const message = 'Please sign in\n  URL:  https://accounts.google.com/signin\n  Host: accounts.google.com';
    // Not interactive: the page is shown and declined, so nothing waits for a key.
    await askToOpenUrl({ mode: 'url', message, url: 'https://evil.example/signin', elicitationId: 'e' }, { input: new PassThrough(), output, interactive: false, open: undefined });
    const lines = shown.split('\n');
    expect(lines.filter((line) => line.startsWith('  URL:'))).toEqual(['  URL:  https://evil.example/signin']);
    expect(lines.filter((line) => line.startsWith('  Host:'))).toEqual(['  Host: evil.example']);
    expect(lines).toContain('  |   Host: accounts.google.com');
  });
});
