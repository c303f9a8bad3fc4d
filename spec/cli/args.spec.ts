import { parseCommandLine, UsageError } from '../../src/cli/args.js';

describe('rxmcp command line', () => {
  it('takes --timeout up to the longest a timer waits, and refuses more', () => {
    const server = ['--', 'node', 'server.mjs'];
    expect(parseCommandLine(['tools', '--timeout', '5000', ...server]).timeoutMs).toBe(5000);
    expect(parseCommandLine(['tools', '--timeout', String(2 ** 31 - 1), ...server]).timeoutMs).toBe(2 ** 31 - 1);
    // Past it Node fires at once: every probe of `rxmcp servers` would fail as it began.
    expect(() => parseCommandLine(['tools', '--timeout', String(2 ** 31), ...server])).toThrow(UsageError);
    expect(() => parseCommandLine(['tools', '--timeout=-1', ...server])).toThrow('--timeout wants milliseconds');
  });

  it('takes --tool-search with serve alone', () => {
    expect(parseCommandLine(['serve', '--config', 'servers.json', '--tool-search']).toolSearch).toBe(true);
    expect(parseCommandLine(['serve', '--config', 'servers.json']).toolSearch).toBe(false);
    expect(() => parseCommandLine(['tools', '--tool-search', '--', 'node', 'server.mjs'])).toThrow('--tool-search goes with serve');
  });

  it('takes inspect with one server or none, and --no-open with inspect alone', () => {
    expect(parseCommandLine(['inspect']).command).toBe('inspect');
    expect(parseCommandLine(['inspect', '--no-open', '--url', 'http://127.0.0.1:3000/mcp'])).toMatchObject({ noOpen: true, url: 'http://127.0.0.1:3000/mcp' });
    expect(parseCommandLine(['inspect', '--', 'node', 'server.mjs']).server).toEqual({ command: 'node', args: ['server.mjs'] });
    expect(() => parseCommandLine(['inspect', '--url', 'http://127.0.0.1:3000/mcp', '--', 'node', 'server.mjs'])).toThrow('give one server');
    expect(() => parseCommandLine(['tools', '--no-open', '--', 'node', 'server.mjs'])).toThrow('--no-open goes with inspect');
  });
});
