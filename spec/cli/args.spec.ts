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
});
