import { execFileSync } from 'node:child_process';
import { McpClientError } from '../../src/errors/mcp-client-error';
import { isMissingPackage, loadOptionalPeer } from '../../src/util/optional-peer';

// Node's own resolver errors, from require() and import() of packages that are not installed.
function loadError(how: 'require' | 'import', specifier: string): unknown {
  const load = how === 'require' ? `new Promise((resolve) => resolve(require(${JSON.stringify(specifier)})))` : `import(${JSON.stringify(specifier)})`;
  const script = `${load}.catch((error) => console.log(JSON.stringify({ code: error.code, message: error.message })))`;
  const { code, message } = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 })) as { code: string; message: string };
  return Object.assign(new Error(message), { code });
}

describe('loading an optional peer', () => {
  it('says in one line who needs the package and how to install it, with the resolver error as the cause', async () => {
    const cause = loadError('require', 'rxmcp-absent-peer/sub');
    const loading = loadOptionalPeer('rxmcp/example', 'rxmcp-absent-peer', () => Promise.reject(cause));
    await expect(loading).rejects.toBeInstanceOf(McpClientError);
    await expect(loading).rejects.toMatchObject({ message: 'rxmcp/example needs the optional package rxmcp-absent-peer: npm install rxmcp-absent-peer', cause });
  });

  it('resolves to the module when the package is there', async () => {
    await expect(loadOptionalPeer('rxmcp/example', 'zod', () => import('zod'))).resolves.toHaveProperty('z');
  });

  it('tells the absence of the package itself, or of a subpath of it, from any other failure to load', () => {
    expect(isMissingPackage(loadError('require', 'rxmcp-absent-peer'), 'rxmcp-absent-peer')).toBe(true);
    expect(isMissingPackage(loadError('require', '@rxmcp-absent/peer/tools'), '@rxmcp-absent/peer')).toBe(true);
    expect(isMissingPackage(loadError('import', 'rxmcp-absent-peer/sub'), 'rxmcp-absent-peer')).toBe(true);
    expect(isMissingPackage(loadError('import', '@rxmcp-absent/peer/tools'), '@rxmcp-absent/peer')).toBe(true);
    // Another package gone missing, one whose name only starts the same, a file, or no resolver error at all.
    expect(isMissingPackage(loadError('require', 'rxmcp-absent-dependency'), 'rxmcp-absent-peer')).toBe(false);
    expect(isMissingPackage(loadError('import', 'rxmcp-absent-dependency'), 'rxmcp-absent-peer')).toBe(false);
    expect(isMissingPackage(loadError('require', 'rxmcp-absent-peer-extra'), 'rxmcp-absent-peer')).toBe(false);
    expect(isMissingPackage(loadError('require', '/no/such/rxmcp-absent-peer.js'), 'rxmcp-absent-peer')).toBe(false);
    expect(isMissingPackage(new SyntaxError("Cannot find module 'rxmcp-absent-peer'"), 'rxmcp-absent-peer')).toBe(false);
    expect(isMissingPackage(undefined, 'rxmcp-absent-peer')).toBe(false);
  });
});
