import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { chosenBrowser, inspectorSession } from '../support/inspect.js';

// Results in the page of `rxmcp inspect`, in Debian's Chromium, headless:
// server-everything's image, resource links and embedded resources, the
// media fixture's audio, and a hostile server whose every string is markup,
// with results of megabytes, 20,000 blocks, a value nested 100,000 levels
// and a flood of log messages. The page shows each as it is and runs none.

jest.setTimeout(120_000);

const root = join(__dirname, '..', '..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const hostile = join(root, 'spec/fixtures/hostile-inspect-server.mjs');

describe(`results in rxmcp inspect, in a real browser (${chosenBrowser ? chosenBrowser.path : 'none found'})`, () => {
  const session = inspectorSession();

  const open = async (args: string[]): Promise<Page> => {
    const run = await session.inspect(args);
    const page = await session.browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(run.url);
    return page;
  };

  /** Calls `tool` with the form's `fields` filled, and resolves with the status line once the call ended. */
  const call = async (page: Page, tool: string, fields: Record<string, string> = {}): Promise<string> => {
    await page.locator(`#tools button[data-tool="${tool}"]`).click();
    await page.locator('#call h2', { hasText: tool }).waitFor();
    for (const [name, value] of Object.entries(fields)) {
      // A field with choices is a list to pick from; the rest are typed in.
      const field = page.locator(`#call [name="${name}"]`);
      if ((await field.evaluate((node) => node.tagName)) === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
    await page.click('#run');
    await page.locator('#status', { hasText: /^(done|the tool reported an error|failed: )/ }).waitFor();
    return (await page.locator('#status').textContent()) as string;
  };

  // What would show that a server's markup ran, or could run on a click.
  const nothingRan = async (page: Page): Promise<void> => {
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('main script, main iframe, main object, main embed, main svg').count()).toBe(0);
    const hrefs = await page.locator('main a').evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    expect(hrefs.filter((href) => !/^https?:\/\//.test(href))).toEqual([]);
    const sources = await page.locator('main img, main audio').evaluateAll((media) => media.map((item) => (item as HTMLImageElement).src));
    expect(sources.filter((src) => !/^data:(image\/(png|jpeg|gif|webp)|audio\/[a-z-]+);base64,/.test(src))).toEqual([]);
  };

  describe('server-everything over stdio', () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(['--', process.execPath, everything, 'stdio']);
    });
    afterAll(() => page?.close());

    it('shows get-tiny-image\'s image, decoded, between its texts', async () => {
      expect(await call(page, 'get-tiny-image')).toBe('done');
      const image = page.locator('#result img');
      await image.waitFor();
      await page.waitForFunction(() => (document.querySelector('#result img') as HTMLImageElement | null)?.complete === true);
      expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
      expect(await page.locator('#result pre').allTextContents()).toEqual(["Here's the image you requested:", 'The image above is the MCP logo.']);
    });

    it('shows resource links by name, with their URI as text and their MIME type', async () => {
      expect(await call(page, 'get-resource-links', { count: '2' })).toBe('done');
      const links = page.locator('#result .resource-link');
      expect(await links.count()).toBe(2);
      expect(await links.nth(0).textContent()).toMatch(/^Blob Resource 1demo:\/\/resource\/dynamic\/blob\/1 · text\/plain/);
      expect(await links.nth(1).textContent()).toMatch(/^Text Resource 2demo:\/\/resource\/dynamic\/text\/2 · text\/plain/);
      expect(await page.locator('#result a').count()).toBe(0);
    });

    it('shows an embedded resource with its URI and its text', async () => {
      expect(await call(page, 'get-resource-reference')).toBe('done');
      const resource = page.locator('#result .resource');
      expect(await resource.locator('.uri').textContent()).toMatch(/^embedded resource demo:\/\/resource\/.* · text\/plain$/);
      expect(await resource.locator('pre').textContent()).toContain('Resource 1');
    });

    it('shows structuredContent as a tree that matches the tool\'s outputSchema', async () => {
      expect(await call(page, 'get-structured-content', { location: 'Chicago' })).toBe('done');
      expect(await page.locator('#result .tree').textContent()).toContain('conditions: "Light rain / drizzle"');
      await page.locator('#result .schema-verdict[data-verdict=match]').waitFor();
      expect(await page.locator('#result .schema-verdict').textContent()).toBe('matches outputSchema');
    });
  });

  describe('the media fixture over stdio', () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(['--', process.execPath, join(root, 'spec/fixtures/media-server.mjs')]);
    });
    afterAll(() => page?.close());

    it('plays an audio block in an audio player', async () => {
      expect(await call(page, 'beep')).toBe('done');
      const audio = page.locator('#result audio[controls]');
      expect(await audio.getAttribute('src')).toMatch(/^data:audio\/wav;base64,UklGR/);
      await page.waitForFunction(() => ((document.querySelector('#result audio') as HTMLAudioElement | null)?.readyState ?? 0) >= 1);
      expect(await audio.evaluate((player) => (player as HTMLAudioElement).duration)).toBeGreaterThan(0);
    });

    it('says an SVG image is not shown, and an image of 50 MiB is too big', async () => {
      await call(page, 'svg');
      expect(await page.locator('#result').textContent()).toContain('not shown, as the page shows only raster images');
      await call(page, 'huge-image');
      expect(await page.locator('#result').textContent()).toMatch(/MB, too big to show/);
      expect(await page.locator('#result img').count()).toBe(0);
    });
  });

  describe('the hostile server over stdio, behind the gateway', () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(['--', process.execPath, hostile]);
      await page.locator('#tools button[data-tool="markup"]').waitFor();
    });
    afterAll(() => page?.close());

    it('lists tools whose titles and descriptions are markup as text', async () => {
      expect(await page.locator('#tools').textContent()).toContain('Title <img src=x onerror=');
      await page.locator('#tools button[data-tool="markup"]').click();
      expect(await page.locator('#call').textContent()).toContain('Description <img src=x onerror=');
      await nothingRan(page);
    });

    it('renders its Markdown with links to http(s) alone', async () => {
      await call(page, 'markdown');
      expect(await page.locator('#result .markdown a').count()).toBe(1);
      await nothingRan(page);
    });

    it('shows the gateway\'s refusal of structuredContent nested 100,000 levels as the tool\'s error', async () => {
      expect(await call(page, 'deep')).toBe('the tool reported an error');
      expect(await page.locator('#result .tool-error').textContent()).toBe('The tool reported an error (isError):The result nests deeper than 512 levels, so it was not passed on');
      await nothingRan(page);
    });
  });

  describe('the hostile server over Streamable HTTP, the page its only client', () => {
    let server: RunningServer;
    let page: Page;
    beforeAll(async () => {
      server = await startHttpServer('hostile-inspect-server.mjs', '--http');
      page = await open(['--url', server.url]);
      await page.locator('#tools button[data-tool="markup"]').waitFor();
    });
    afterAll(async () => {
      await page?.close();
      await server?.stop();
    });

    it('lists tools whose names, titles and descriptions are markup as text', async () => {
      expect(await page.locator('#tools').textContent()).toContain('Title <img src=x onerror=');
      expect(await page.locator('#tools').textContent()).toContain('name <img src=x onerror=');
      await page.locator('#tools button[data-tool="markup"]').click();
      expect(await page.locator('#call').textContent()).toContain('Description <img src=x onerror=');
      await nothingRan(page);
    });

    it('renders Markdown with links to http(s) alone, and shows the text as sent on request', async () => {
      await call(page, 'markdown');
      const markdown = page.locator('#result .markdown');
      expect(await markdown.locator('h3').textContent()).toContain('Heading <img src=x onerror=');
      expect(await markdown.locator('strong').first().textContent()).toContain('bold <img');
      expect(await markdown.locator('a').evaluateAll((anchors) => anchors.map((anchor) => [anchor.textContent, (anchor as HTMLAnchorElement).href, (anchor as HTMLAnchorElement).rel, (anchor as HTMLAnchorElement).target]))).toEqual([
        ['an http link', 'https://example.com/docs', 'noopener noreferrer', '_blank'],
      ]);
      expect(await markdown.textContent()).toContain('[a javascript link](javascript:window.pwned=7)');
      expect(await markdown.locator('pre code').textContent()).toContain('<script>window.pwned=2</script>');
      await page.click('#result button.as');
      expect(await page.locator('#result .text-block pre').textContent()).toMatch(/^# Heading <img/);
      expect(await page.locator('#result button.as').textContent()).toBe('Show as Markdown');
      await nothingRan(page);
    });

    it('shows no SVG or HTML as an image or audio, and links, embedded resources and odd blocks as text', async () => {
      await call(page, 'media');
      const result = page.locator('#result');
      expect(await result.locator('img, audio').count()).toBe(0);
      expect(await result.locator('.note').allTextContents()).toEqual([
        expect.stringContaining('image of "image/svg+xml": not shown'),
        expect.stringContaining('image of "text/html": not shown'),
        expect.stringContaining('its data is not base64'),
        expect.stringContaining('audio of "text/html": not shown'),
        expect.stringContaining('of "image/svg+xml"]'),
      ]);
      expect(await result.locator('.resource-link').first().textContent()).toContain('Link title <img src=x');
      expect(await result.locator('.resource-link code').first().textContent()).toBe('javascript:window.pwned=11');
      expect(await result.locator('.resource-link a').evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href))).toEqual(['https://example.com/resource']);
      expect(await result.locator('.resource pre').first().textContent()).toContain('<!doctype html><img src=x');
      expect(await result.locator('pre.json').textContent()).toContain('"html": "<img src=x onerror=');
      await page.locator('#log div', { hasText: 'log <img src=x' }).waitFor();
      await nothingRan(page);
    });

    it('shows the start of five megabytes of text, and stays usable', async () => {
      await call(page, 'huge-text');
      expect(await page.locator('#result .note').textContent()).toMatch(/^… 5,\d{3},\d{3} more characters not shown/);
      expect(await page.locator('#result pre').evaluate((pre) => pre.textContent?.length)).toBeLessThanOrEqual(100_000);
      expect(await call(page, 'is-error')).toBe('the tool reported an error');
    });

    it('shows the first 500 of 20,000 blocks and counts the rest', async () => {
      await call(page, 'many-blocks');
      expect(await page.locator('#result pre').count()).toBe(500);
      expect(await page.locator('#result .note').textContent()).toContain('19,500 more blocks not shown');
    });

    it('keeps the last 500 of 10,000 log messages, and answers the next call', async () => {
      await call(page, 'flood');
      await page.locator('#log div', { hasText: 'flood done' }).waitFor();
      expect(await page.locator('#log div').count()).toBeLessThanOrEqual(500);
      expect(await call(page, 'checked')).toBe('done');
    });

    it('shows a result with isError as an error', async () => {
      expect(await call(page, 'is-error')).toBe('the tool reported an error');
      expect(await page.locator('#result .tool-error').textContent()).toMatch(/^The tool reported an error \(isError\):it broke <img/);
    });

    it('shows a failed call with its code, message and data', async () => {
      expect(await call(page, 'fails')).toMatch(/^failed: /);
      const failure = page.locator('#result .call-error');
      expect(await failure.locator('strong').textContent()).toBe('McpProtocolError (code -32602)');
      expect(await failure.locator('p').textContent()).toContain('refused <img src=x');
      expect(JSON.parse((await failure.locator('pre.json').textContent()) as string)).toEqual({ html: expect.stringContaining('<script>'), nested: { list: [1, 2, expect.stringContaining('<iframe')] } });
    });

    it('says whether structuredContent matches the outputSchema, and the first problem when it does not', async () => {
      await call(page, 'checked');
      await page.locator('#result .schema-verdict[data-verdict=match]').waitFor();
      await page.locator('#tools button[data-tool="checked"]').click();
      await page.check('#call input[name="broken"]');
      await page.click('#run');
      await page.locator('#result .schema-verdict[data-verdict=mismatch]').waitFor();
      expect(await page.locator('#result .schema-verdict').textContent()).toMatch(/^Does not match outputSchema: .*count/);
      expect(await page.locator('#result .tree').textContent()).toContain('count: "three"');
    });

    it('shows structuredContent nested 100,000 levels as a tree cut at 64 levels, and says it could not be checked', async () => {
      expect(await call(page, 'deep')).toBe('done');
      expect(await page.locator('#result .tree .note').textContent()).toContain('deeper than 64 levels: not shown');
      expect(await page.locator('#result .tree details').count()).toBe(64);
      await page.locator('#result .schema-verdict[data-verdict=unchecked]').waitFor();
      expect(await call(page, 'markdown')).toBe('done');
      await nothingRan(page);
    });

    it('ran nothing the server sent, in all of the above', async () => {
      await nothingRan(page);
    });
  });
});
