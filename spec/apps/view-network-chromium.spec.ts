import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { RecordedEvent } from '../support/apps-page.js';
import { type AppsHost, type ExampleServer, launchChromium, startAppsHost, startViewFixture, until } from '../support/apps-harness.js';

// A view's way out past its CSP, in Chromium: WebRTC (a peer connection
// sends STUN binding requests to any address its configuration names, and
// Chromium has no CSP directive for it), and documents the view navigates
// its own frame to (data:, blob:), which have the view's opaque origin and
// window and could speak to the host in its name. The STUN "server" is a UDP
// socket on 127.0.0.1 that records every datagram it gets.

describe('what a view reaches beyond its declared network, in Chromium', () => {
  let server: ExampleServer;
  let host: AppsHost;
  let browser: Browser;
  let page: Page;
  let stun: Socket;
  let datagrams: number[];

  beforeAll(async () => {
    [server, host] = await Promise.all([startViewFixture(), startAppsHost()]);
    browser = await launchChromium();
  }, 60000);

  beforeEach(async () => {
    datagrams = [];
    stun = createSocket('udp4');
    stun.on('message', (message) => datagrams.push(message.length));
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    page = await browser.newPage();
    await page.goto(host.pageUrl);
    await page.waitForFunction(() => window.appsHost !== undefined);
  });

  afterEach(async () => {
    await page?.close();
    await new Promise<void>((resolve) => stun.close(() => resolve()));
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), host?.stop()]);
  });

  const mount = async (tool: string): Promise<void> => {
    const { port } = stun.address() as AddressInfo;
    await page.evaluate(({ url, tool: name, stunUrl }) => window.appsHost.mount({ serverUrl: url, tool: name, arguments: { stun: stunUrl } }), { url: server.url, tool, stunUrl: `stun:127.0.0.1:${port}` });
  };
  const events = (): Promise<RecordedEvent[]> => page.evaluate(() => window.appsHost.events);
  const messages = async (): Promise<string[]> =>
    (await events()).filter((event) => event.kind === 'message').map((event) => (event as { content: Array<{ text: string }> }).content[0]?.text ?? '');

  it('takes RTCPeerConnection away from the view, so a view that declared no such origin sends no STUN (MCP Apps: Security Implications)', async () => {
    await mount('rtc');
    await until(async () => (await messages()).length > 0, 30000);
    // The view's own frame (appended before it reported) did not cost it the relay.
    expect(JSON.parse((await messages())[0] ?? '{}')).toEqual({ rtc: 'undefined', webkit: 'undefined', peer: 'threw ReferenceError', blankFrame: 'threw SecurityError' });
    expect(datagrams).toEqual([]);
  }, 40000);

  it('a limit: a frame the view makes itself runs its own script in a fresh realm, and its peer connection reaches the STUN server, webrtc \'block\' or not', async () => {
    await mount('rtc_nested');
    await until(async () => (await messages()).length > 0, 30000);
    await until(() => datagrams.length > 0, 20000);
    expect(datagrams.length).toBeGreaterThan(0);
  }, 60000);

  it("reaches nothing on the sandbox's own origin, the source 'self' would name in a view's document: a view that declared nothing loads nothing (MCP Apps: resourceDomains, empty or omitted)", async () => {
    await page.evaluate(({ url, sandbox }) => window.appsHost.mount({ serverUrl: url, tool: 'self_reach', arguments: { sandbox } }), { url: server.url, sandbox: host.sandboxOrigin });
    await until(async () => (await messages()).length > 0, 30000);
    expect(JSON.parse((await messages())[0] ?? '{}')).toEqual({ img: 'failed', script: 'failed', style: 'failed', video: 'failed', font: 'failed' });
    expect(host.sandboxBeacons).toEqual([]);
  }, 40000);

  it.each(['data_nav', 'blob_nav'])('relays nothing from a document the view navigated its frame to (%s), and removes the frame', async (tool) => {
    await mount(tool);
    await until(async () => (await events()).some((event) => event.kind === 'initialized'), 30000);
    // The impostor asks for a ui/message as soon as it runs: the proxy either relays it or cuts the view off.
    await until(async () => (await messages()).length > 0 || page.frames().length === 2, 30000);
    expect(await messages()).toEqual([]);
    expect(page.frames().map((frame) => frame.url().split(':', 1)[0])).toEqual(['http', 'http']);
  }, 40000);

  it.each(['blob_race', 'data_race'])(
    'relays nothing from a document the view navigated to before the proxy read its hello, however long the view holds the hello back (%s)',
    async (tool) => {
      await mount(tool);
      await until(() => page.frames().length > 2, 30000);
      // The impostor does the whole handshake and asks for a ui/message: relayed, it would be initialized and heard.
      await until(async () => (await messages()).length > 0 || page.frames().length === 2, 30000);
      expect(await messages()).toEqual([]);
      expect((await events()).filter((event) => event.kind === 'initialized')).toEqual([]);
      expect(page.frames().map((frame) => frame.url().split(':', 1)[0])).toEqual(['http', 'http']);
    },
    40000,
  );
});
