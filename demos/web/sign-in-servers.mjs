// The demo's protected MCP server and the authorization server in front of
// it: the same two the sign-in specs run (spec/fixtures/oauth), each a child
// process on 127.0.0.1, stopped with this process. The MCP server lets any
// origin call it (CORS); the authorization server lets pages call its token
// endpoint but not its registration endpoint, so the demo registers its
// page's client beforehand, as a web app's developer does.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'spec', 'fixtures', 'oauth');

/** Starts `script` with `args`, resolving with its port once it prints it; its stderr lines go to `log`. */
function start(script, args, log) {
  const child = spawn(process.execPath, [join(fixtures, script), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill());
  createInterface({ input: child.stderr }).on('line', (line) => log(`${script}: ${line}`));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ child, port: JSON.parse(line).port }));
  });
}

/**
 * Starts the authorization server, then the MCP server it protects, and
 * registers a public client whose redirect URL is `redirectUrl`.
 *
 * @returns {Promise<{ issuer: string, url: string, clientId: string, stop: () => void }>}
 */
export async function startSignInServers(redirectUrl, log) {
  const authorization = await start('authorization-server.mjs', [], log);
  const issuer = `http://127.0.0.1:${authorization.port}`;
  const resource = await start('protected-server.mjs', [issuer], log).catch((error) => {
    authorization.child.kill();
    throw error;
  });
  const stop = () => [authorization, resource].forEach(({ child }) => child.kill());
  try {
    const metadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
    const response = await fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'rxmcp web demo',
        application_type: 'native',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const client = await response.json();
    if (response.status !== 201) throw new Error(`registering the demo's client answered ${response.status}`);
    return { issuer, url: `http://127.0.0.1:${resource.port}/mcp`, clientId: client.client_id, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
