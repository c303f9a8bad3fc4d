import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpAuthError } from '../../src/errors/auth-errors.js';
import type { AuthOptions } from '../../src/auth/auth-options.js';
import { FileTokenStore, type LoopbackSignIn, type LoopbackSignInOptions, loopbackSignIn } from '../../src/node/index.js';

const AUTHORIZATION = 'https://auth.example.com/authorize?response_type=code&client_id=c1&code_challenge=xyz&state=s-1';

// authorize() subscribes at once, so a sign-in is waiting before each test's
// fetch plays the browser coming back.
let signIn: LoopbackSignIn | undefined;
afterEach(async () => {
  await signIn?.close();
  signIn = undefined;
});

async function start(options: LoopbackSignInOptions = {}): Promise<{ signIn: LoopbackSignIn; lines: string[] }> {
  const lines: string[] = [];
  signIn = await loopbackSignIn({ open: false, print: (line) => lines.push(line), ...options });
  return { signIn, lines };
}

/** The status of a GET with a request target fetch would normalise away. */
function rawStatus(origin: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const request = httpRequest({ host: hostname, port, path: target }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject).end();
  });
}

describe('loopbackSignIn', () => {
  it('knows its redirect URL before any sign-in starts, and fits the auth options as it is', async () => {
    const { signIn } = await start();
    expect(signIn.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(new URL(signIn.redirectUrl).port).not.toBe('0');
    const auth: AuthOptions = { redirectUrl: signIn.redirectUrl, authorize: signIn.authorize, tokenStore: new FileTokenStore({ directory: tmpdir() }) };
    expect(auth.authorize).toBe(signIn.authorize);
  });

  it('answers the hook with the URL the browser came back to, and tells the browser it can close the tab', async () => {
    const { signIn, lines } = await start();
    const answer = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    const redirect = `${signIn.redirectUrl}?code=the-code-123&state=s-1`;
    const browser = await fetch(redirect);
    expect(browser.status).toBe(200);
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(browser.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await browser.text()).toMatch(/You can close this tab/);
    expect(await answer).toBe(redirect);
    expect(lines).toEqual([`To sign in, open ${AUTHORIZATION}`]);
    expect(lines.join('\n')).not.toContain('the-code-123');
  });

  it('hands on an error redirect too, for the client to report', async () => {
    const { signIn } = await start();
    const answer = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    const browser = await fetch(`${signIn.redirectUrl}?error=access_denied&state=s-1`);
    expect(await browser.text()).toMatch(/did not sign you in/);
    expect(await answer).toBe(`${signIn.redirectUrl}?error=access_denied&state=s-1`);
  });

  it('answers 404 elsewhere, 405 to other methods and 400 to a callback with no code, and keeps waiting', async () => {
    const { signIn } = await start({ path: '/oauth/done' });
    expect(signIn.redirectUrl).toMatch(/\/oauth\/done$/);
    const answer = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    const origin = new URL(signIn.redirectUrl).origin;
    expect((await fetch(`${origin}/callback?code=c&state=s-1`)).status).toBe(404);
    expect((await fetch(`${origin}/favicon.ico`)).status).toBe(404);
    expect(await rawStatus(origin, '//elsewhere.example/oauth/done?code=c&state=s-1')).toBe(404);
    expect((await fetch(`${signIn.redirectUrl}?code=c&state=s-1`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${signIn.redirectUrl}?state=s-1`)).status).toBe(400);
    expect((await fetch(`${signIn.redirectUrl}?code=c&state=s-1`)).status).toBe(200);
    expect(await answer).toBe(`${signIn.redirectUrl}?code=c&state=s-1`);
  });

  it('tells a second callback the sign-in is over, and turns away a state nobody waits for', async () => {
    const { signIn } = await start();
    const answer = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    const forged = await fetch(`${signIn.redirectUrl}?code=forged&state=s-2`);
    expect(forged.status).toBe(410);
    expect((await fetch(`${signIn.redirectUrl}?code=c1&state=s-1`)).status).toBe(200);
    expect(await answer).toBe(`${signIn.redirectUrl}?code=c1&state=s-1`);
    const again = await fetch(`${signIn.redirectUrl}?code=c1&state=s-1`);
    expect(again.status).toBe(410);
    expect(await again.text()).toMatch(/Sign-in is over/);
  });

  it('sends each redirect to the sign-in with its state', async () => {
    const { signIn } = await start();
    const first = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    const second = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION.replace('s-1', 's-2')) }));
    await fetch(`${signIn.redirectUrl}?code=two&state=s-2`);
    await fetch(`${signIn.redirectUrl}?code=one&state=s-1`);
    expect(await first).toMatch(/code=one/);
    expect(await second).toMatch(/code=two/);
  });

  it('stops waiting when unsubscribed, and stays up for the next try', async () => {
    const { signIn } = await start();
    const abandoned = signIn.authorize({ url: new URL(AUTHORIZATION) }).subscribe();
    abandoned.unsubscribe();
    expect((await fetch(`${signIn.redirectUrl}?code=late&state=s-1`)).status).toBe(410);
    const retry = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    expect((await fetch(`${signIn.redirectUrl}?code=c2&state=s-1`)).status).toBe(200);
    expect(await retry).toMatch(/code=c2/);
  });

  it('stops listening on close, failing the sign-in that waits and any that starts later', async () => {
    const { signIn } = await start();
    const waiting = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    await Promise.all([signIn.close(), signIn.close()]);
    await expect(waiting).rejects.toBeInstanceOf(McpAuthError);
    await expect(waiting).rejects.toMatchObject({ step: 'authorize', message: expect.stringContaining('was closed while waiting') });
    await expect(fetch(`${signIn.redirectUrl}?code=c&state=s-1`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    await expect(firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }))).rejects.toMatchObject({ step: 'authorize' });
  });

  it('gives up after timeoutMs', async () => {
    const { signIn } = await start({ timeoutMs: 30 });
    await expect(firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }))).rejects.toMatchObject({
      name: 'McpAuthError',
      step: 'authorize',
      message: expect.stringContaining('within 30 ms'),
    });
    expect((await fetch(`${signIn.redirectUrl}?code=late&state=s-1`)).status).toBe(410);
  });

  it('will not send a person to a URL that is not http or https', async () => {
    const opened: URL[] = [];
    const { signIn, lines } = await start({ open: (url) => void opened.push(url) });
    await expect(firstValueFrom(signIn.authorize({ url: new URL('file:///etc/passwd') }))).rejects.toMatchObject({ step: 'authorize' });
    expect(opened).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('calls the given opener with the authorization URL, and shrugs off its failure', async () => {
    const opened: string[] = [];
    const { signIn, lines } = await start({
      open: (url) => {
        opened.push(url.href);
        throw new Error('no display');
      },
    });
    const answer = firstValueFrom(signIn.authorize({ url: new URL(AUTHORIZATION) }));
    expect(opened).toEqual([AUTHORIZATION]);
    expect(lines).toEqual([`Opening a browser to sign in. If none opens, visit ${AUTHORIZATION}`]);
    await fetch(`${signIn.redirectUrl}?code=c&state=s-1`);
    await expect(answer).resolves.toMatch(/code=c/);
  });

  // In a child process: jest gives each test file its own copy of process.env,
  // which the real spawn never sees, and this test needs a fake xdg-open on PATH.
  (process.platform === 'linux' ? it : it.skip)('opens the system browser with xdg-open, the URL as one argument', () => {
    const bin = mkdtempSync(join(tmpdir(), 'rxmcp-open-'));
    const record = join(bin, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > "$RXMCP_OPENED"\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const script = `
      import { existsSync } from 'node:fs';
      const { loopbackSignIn } = await import(${JSON.stringify(join(__dirname, '../../src/node/index.ts'))});
      const signIn = await loopbackSignIn({ print: () => undefined });
      const answer = new Promise((next, error) => signIn.authorize({ url: new URL(${JSON.stringify(AUTHORIZATION)}) }).subscribe({ next, error }));
      for (let waited = 0; !existsSync(process.env.RXMCP_OPENED) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await fetch(signIn.redirectUrl + '?code=c&state=s-1');
      console.log(new URL(await answer).search);
      await signIn.close();`;
    writeFileSync(join(bin, 'sign-in.mjs'), script);
    const output = execFileSync(process.execPath, ['--import', 'tsx', join(bin, 'sign-in.mjs')], {
      cwd: join(__dirname, '../..'),
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`, RXMCP_OPENED: record },
    });
    expect(output.trim()).toBe('?code=c&state=s-1');
    expect(readFileSync(record, 'utf8')).toBe(`1\n${AUTHORIZATION}\n`);
  });

  it('reports a port it cannot listen on', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(loopbackSignIn({ port, open: false })).rejects.toMatchObject({
        name: 'McpAuthError',
        step: 'callback',
        message: expect.stringContaining(`127.0.0.1:${port}: EADDRINUSE`),
      });
    } finally {
      taken.close();
    }
  });

  it('refuses options it does not know or cannot use', async () => {
    await expect(loopbackSignIn({ prot: 1 } as never)).rejects.toThrow('unknown option: prot');
    await expect(loopbackSignIn({ path: 'callback' })).rejects.toThrow(/option path must start with \//);
    await expect(loopbackSignIn({ port: 70000 })).rejects.toThrow(/65535/);
    await expect(loopbackSignIn({ timeoutMs: -1 })).rejects.toThrow(/timeoutMs/);
  });
});
