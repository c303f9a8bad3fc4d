import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { sourcesOf } from '../support/built-sources.js';

// These specs read the built package in dist/ (npm test builds it first), as
// a user's bundler or Node would load it. dist/ holds bundles: which source
// files a built file holds is read with sourcesOf (spec/support/built-sources.ts).

const root = join(__dirname, '..', '..');
const NODE_ONLY = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** The public names API.md fixes for what exists so far. */
const CONTRACT = [
  'McpClient',
  'StdioTransport',
  'HttpTransport',
  'McpClientError',
  'McpTimeoutError',
  'McpServerGoneError',
  'McpProtocolError',
  'McpUnsupportedVersionError',
  'McpSpawnFailedError',
  'McpTransportClosedError',
  'McpCancelledError',
  'McpInputLoopExceededError',
  'McpHttpError',
];

/** Every module the ESM root entry loads statically, with what each imports. */
function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const source = readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(/(?:from|^import)\s*['"]([^'"]+)['"]/gm)].map((match) => match[1] as string);
    graph.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
    }
  };
  visit(entry);
  return graph;
}

/**
 * Every module the root entry can ever load, on demand too: static imports,
 * dynamic `import()` and `require()`, followed through relative specifiers,
 * with package specifiers listed as they are.
 */
function everyLoad(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const pattern = /(?:\bfrom\s*|^import\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/gm;
    for (const [, specifier = ''] of source.matchAll(pattern)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else seen.add(specifier);
    }
  };
  visit(entry);
  return seen;
}

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
}

describe('the built package', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/esm/index.js'))) throw new Error('dist/ is missing: run npm run build (npm test does)');
  });

  it('keeps node-only modules out of the static graph of the root entry', () => {
    const graph = staticGraph(join(root, 'dist/esm/index.js'));
    expect(graph.size).toBeGreaterThan(5);
    const nodeOnly = [...graph].flatMap(([file, specifiers]) =>
      specifiers.filter((s) => NODE_ONLY.has(s)).map((s) => `${file} imports ${s}`),
    );
    expect(nodeOnly).toEqual([]);
  });

  it('loads child_process only when a stdio server starts', () => {
    const probe = "console.log(process.moduleLoadList.some((m) => m.includes('child_process')))";
    expect(node(['--input-type=module', '-e', `import 'rxmcp'; ${probe}`]).trim()).toBe('false');
    expect(node(['-e', `require('rxmcp'); ${probe}`]).trim()).toBe('false');
  });

  it('loads its HTTP modules only when HTTP is used, never for stdio, and sends with node:http on Node, loading no fetch polyfill', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'rxmcp-loads-')), 'loads.txt');
    const hooks = pathToFileURL(join(root, 'spec/support/record-loads.mjs')).href;
    const server = JSON.stringify(join(root, 'spec/fixtures/modern-server.mjs'));
    const script = `
      import { register } from 'node:module';
      import { appendFileSync } from 'node:fs';
      register(${JSON.stringify(hooks)});
      const { firstValueFrom } = await import('rxjs');
      const { McpClient } = await import('rxmcp');
      const stdio = McpClient.connectStdio({ command: process.execPath, args: [${server}] });
      await firstValueFrom(stdio.listTools());
      await stdio.close();
      appendFileSync(process.env.RXMCP_LOAD_LOG, '--- http\\n');
      const http = McpClient.connectHttp({ url: 'http://127.0.0.1:9/mcp' });
      await firstValueFrom(http.describe()).catch(() => undefined);
      await http.close();`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...process.env, RXMCP_LOAD_LOG: log } });
    const [stdioLoads = '', httpLoads = ''] = readFileSync(log, 'utf8').split('--- http\n');
    expect(stdioLoads).not.toMatch(/cross-fetch|eventsource-parser|node:https?\n/);
    expect(httpLoads).toMatch(/^node:http\n/m);
    expect(httpLoads).not.toMatch(/cross-fetch/);
  });

  it('loads the JSON Schema validator only when a listed tool with an outputSchema answers, in both builds', () => {
    const server = JSON.stringify(join(root, 'spec/fixtures/modern-server.mjs'));
    const hooks = JSON.stringify(pathToFileURL(join(root, 'spec/support/record-loads.mjs')).href);
    const calls = `
      register(${hooks});
      const mcp = McpClient.connectStdio({ command: process.execPath, args: [${server}] });
      await firstValueFrom(mcp.listTools());
      await firstValueFrom(mcp.callTool('echo', { text: 'hi' }));
      appendFileSync(process.env.RXMCP_LOAD_LOG, '--- add\\n');
      await firstValueFrom(mcp.callTool('add', { a: 1, b: 2 }));
      await mcp.close();`;
    const esm = `
      import { register } from 'node:module';
      import { appendFileSync } from 'node:fs';
      import { firstValueFrom } from 'rxjs';
      import { McpClient } from 'rxmcp';
      ${calls}`;
    const cjs = `
      const { register } = require('node:module');
      const { appendFileSync } = require('node:fs');
      const { firstValueFrom } = require('rxjs');
      const { McpClient } = require('rxmcp');
      (async () => { ${calls} })();`;
    for (const args of [['--input-type=module', '-e', esm], ['-e', cjs]]) {
      const log = join(mkdtempSync(join(tmpdir(), 'rxmcp-loads-')), 'loads.txt');
      execFileSync(process.execPath, args, { cwd: root, env: { ...process.env, RXMCP_LOAD_LOG: log } });
      const [beforeAdd = '', afterAdd = ''] = readFileSync(log, 'utf8').split('--- add\n');
      expect(beforeAdd).not.toMatch(/@cfworker\/json-schema/);
      expect(afterAdd).toMatch(/@cfworker\/json-schema/);
    }
  });

  it('keeps rxmcp/testing out of the root entry, and serves it from both builds', () => {
    const graph = staticGraph(join(root, 'dist/esm/index.js'));
    expect([...sourcesOf(graph.keys())].filter((source) => source.startsWith('src/testing/'))).toEqual([]);
    const names = "console.log(Object.keys(m).sort().join(','))";
    expect(node(['--input-type=module', '-e', `import * as m from 'rxmcp/testing'; ${names}`]).trim()).toBe('FakeTransport,InProcessTransport,ProgressKit,testKit');
    expect(node(['-e', `const m = require('rxmcp/testing'); ${names}`]).trim()).toBe('FakeTransport,InProcessTransport,ProgressKit,testKit');
  });

  it('keeps rxmcp/node out of the root entry, statically and on demand, in both builds', () => {
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect(sourcesOf(loadable)).toContain('src/client/mcp-client.ts');
      expect([...sourcesOf(loadable)].filter((source) => source.startsWith('src/node/'))).toEqual([]);
      expect(loadable.filter((file) => file.endsWith('rxmcp/node'))).toEqual([]);
    }
  });

  it('serves rxmcp/node from both builds, with types, and its helpers work there', () => {
    for (const file of ['esm/node/index.js', 'esm/node/index.d.ts', 'cjs/node/index.js', 'cjs/node/index.d.ts']) {
      expect(existsSync(join(root, 'dist', file))).toBe(true);
    }
    const directory = mkdtempSync(join(tmpdir(), 'rxmcp-node-'));
    const use = (load: string) => `
      ${load}
      (async () => {
        const store = new m.FileTokenStore({ directory: ${JSON.stringify(directory)} });
        await store.set('https://tools.example/mcp', { accessToken: 'a', issuer: 'https://as.example', clientId: 'c' });
        const kept = (await store.get('https://tools.example/mcp')).accessToken;
        await store.clear('https://tools.example/mcp');
        const signIn = await m.loopbackSignIn({ open: false, print: () => undefined });
        await signIn.close();
        console.log(Object.keys(m).sort().join(','), kept, signIn.redirectUrl.replace(/:\\d+/, ':PORT'));
      })();`;
    const expected = 'FileCatalogue,FileGrants,FilePins,FileTokenStore,findServerConfigs,loopbackSignIn,readServerConfig a http://127.0.0.1:PORT/callback';
    expect(node(['--input-type=module', '-e', use("import * as m from 'rxmcp/node';")]).trim()).toBe(expected);
    expect(node(['-e', use("const m = require('rxmcp/node');")]).trim()).toBe(expected);
  });

  it('keeps rxmcp/redis and the redis client out of the root entry, statically and on demand, in both builds', () => {
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect([...sourcesOf(loadable)].filter((source) => source.startsWith('src/redis/'))).toEqual([]);
      expect(loadable.filter((file) => file === 'redis' || file.startsWith('@redis/') || file.endsWith('rxmcp/redis'))).toEqual([]);
    }
    const probe = "console.log(Object.keys(require.cache).some((file) => file.includes('node_modules/redis') || file.includes('node_modules/@redis')))";
    expect(node(['-e', `require('rxmcp'); ${probe}`]).trim()).toBe('false');
  });

  it('keeps rxmcp/apps out of the root entry, statically and on demand, in both builds', () => {
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect([...sourcesOf(loadable)].filter((source) => source.startsWith('src/apps/'))).toEqual([]);
      expect(loadable.filter((file) => file.endsWith('rxmcp/apps'))).toEqual([]);
    }
  });

  it('serves rxmcp/apps from both builds, with types, loading no node-only module, and its sandbox page scripts parse', () => {
    for (const format of ['esm', 'cjs']) {
      for (const file of ['index.js', 'index.d.ts']) expect(existsSync(join(root, 'dist', format, 'apps', file))).toBe(true);
      const loadable = [...everyLoad(join(root, 'dist', format, 'apps', 'index.js'))];
      expect(sourcesOf(loadable)).toContain('src/apps/render-app.ts');
      expect(loadable.filter((file) => NODE_ONLY.has(file))).toEqual([]);
    }
    const use = (load: string) => `${load}
      const script = /<script>([\\s\\S]*)<\\/script>/.exec(m.sandboxProxyHtml({ hostOrigin: 'https://chat.example' }))[1];
      new Function(script);
      console.log(typeof m.renderApp, Object.keys(m.appsExtension).join(), m.buildCsp({ connectDomains: ['https://a.example'] }).includes('connect-src https://a.example'));`;
    const expected = "function io.modelcontextprotocol/ui true";
    expect(node(['--input-type=module', '-e', use("import * as m from 'rxmcp/apps';")]).trim()).toBe(expected);
    expect(node(['-e', use("const m = require('rxmcp/apps');")]).trim()).toBe(expected);
  });

  it('keeps rxmcp/browser out of the root entry, statically and on demand, in both builds', () => {
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect([...sourcesOf(loadable)].filter((source) => source.startsWith('src/browser/'))).toEqual([]);
      expect(loadable.filter((file) => file.endsWith('rxmcp/browser'))).toEqual([]);
    }
  });

  it('serves rxmcp/browser from both builds, with types, loading no node-only module', () => {
    for (const format of ['esm', 'cjs']) {
      for (const file of ['index.js', 'index.d.ts']) expect(existsSync(join(root, 'dist', format, 'browser', file))).toBe(true);
      const loadable = [...everyLoad(join(root, 'dist', format, 'browser', 'index.js'))];
      expect(sourcesOf(loadable)).toContain('src/browser/popup-sign-in.ts');
      expect(loadable.filter((file) => NODE_ONLY.has(file))).toEqual([]);
    }
    const names = "console.log(Object.keys(m).sort().join(','))";
    const expected = 'BrowserTokenStore,finishSignIn,popupSignIn,redirectSignIn';
    expect(node(['--input-type=module', '-e', `import * as m from 'rxmcp/browser'; ${names}`]).trim()).toBe(expected);
    expect(node(['-e', `const m = require('rxmcp/browser'); ${names}`]).trim()).toBe(expected);
  });

  it('keeps rxmcp/gateway and the server SDK out of the root entry, statically and on demand, in both builds', () => {
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect([...sourcesOf(loadable)].filter((source) => source.startsWith('src/gateway/'))).toEqual([]);
      expect(loadable.filter((file) => file.startsWith('@modelcontextprotocol/server') || file.endsWith('rxmcp/gateway'))).toEqual([]);
    }
  });

  it('serves rxmcp/gateway from both builds, with types, loading the server SDK only when it serves', () => {
    for (const file of ['esm/gateway/index.js', 'esm/gateway/index.d.ts', 'cjs/gateway/index.js', 'cjs/gateway/index.d.ts']) {
      expect(existsSync(join(root, 'dist', file))).toBe(true);
    }
    const hooks = JSON.stringify(pathToFileURL(join(root, 'spec/support/record-loads.mjs')).href);
    const serve = `async (m) => {
        const gateway = new m.Gateway({ provider: { toolsForLlm: async () => [], executeToolCalls: async () => [] } });
        appendFileSync(process.env.RXMCP_LOAD_LOG, '--- serve\\n');
        const served = await gateway.listen({ port: 0, bearerToken: false });
        await served.close();
        await gateway.close();
        console.log(Object.keys(m).sort().join(','), served.url.replace(/:\\d+/, ':PORT'));
      }`;
    const start = `const { register } = require('node:module'); const { appendFileSync } = require('node:fs'); register(${hooks});`;
    for (const script of [`${start} (${serve})(require('rxmcp/gateway'));`, `${start} import('rxmcp/gateway').then(${serve});`]) {
      const log = join(mkdtempSync(join(tmpdir(), 'rxmcp-loads-')), 'loads.txt');
      const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, RXMCP_LOAD_LOG: log } });
      expect(out.trim()).toBe('GATEWAY_URI_SCHEME,Gateway http://127.0.0.1:PORT/mcp');
      const [beforeServing = '', serving = ''] = readFileSync(log, 'utf8').split('--- serve\n');
      expect(beforeServing).not.toMatch(/@modelcontextprotocol\/server/);
      expect(serving).toMatch(/@modelcontextprotocol\/server/);
    }
  });

  it('serves rxmcp/protocol from both builds, with types, loading the protocol layer alone, and keeps its old names at the root, deprecated', () => {
    for (const format of ['esm', 'cjs']) {
      for (const file of ['index.js', 'index.d.ts']) expect(existsSync(join(root, 'dist', format, 'protocol', file))).toBe(true);
      const built = join(root, 'dist', format);
      const loadable = [...everyLoad(join(built, 'protocol', 'index.js'))];
      expect(loadable.filter((file) => NODE_ONLY.has(file))).toEqual([]);
      const sources = [...sourcesOf(loadable)];
      expect(sources).toContain('src/protocol/jsonrpc.ts');
      expect(sources.filter((source) => !/^src\/(protocol|errors|util)\//.test(source))).toEqual([]);
      expect(readFileSync(join(built, 'index.d.ts'), 'utf8')).toMatch(/@deprecated Import from 'rxmcp\/protocol'.*\n\s*classify,/);
    }
    const use = "console.log(Object.keys(p).sort().join(','), p.classify === m.classify, p.MODERN_VERSIONS === m.MODERN_VERSIONS)";
    const expected = 'ErrorCode,LEGACY_VERSIONS,MODERN_VERSIONS,SAMPLING_LIMITS,TASKS_EXTENSION,buildNotification,cancelledNotification,classify,decodeLine,iconSrcProblem,isAnswerTo,isErrorResponse,isTaskHandle,kindOf,readTask true true';
    expect(node(['--input-type=module', '-e', `import * as p from 'rxmcp/protocol'; import * as m from 'rxmcp'; ${use}`]).trim()).toBe(expected);
    expect(node(['-e', `const p = require('rxmcp/protocol'); const m = require('rxmcp'); ${use}`]).trim()).toBe(expected);
  });

  it('serves rxmcp/sampling from both builds, with types, loading no client, transport or vendor SDK', () => {
    for (const format of ['esm', 'cjs']) {
      for (const file of ['index.js', 'index.d.ts']) expect(existsSync(join(root, 'dist', format, 'formats', 'sampling', file))).toBe(true);
      const built = join(root, 'dist', format);
      // everyLoad reads imports by pattern, and an error's text ("… from 'the code around it went wrong'") reads like one: no module name has a space.
      const loadable = [...everyLoad(join(built, 'formats', 'sampling', 'index.js'))].filter((file) => !/\s/.test(file));
      expect(loadable.filter((file) => !file.startsWith(built))).toEqual([]);
      const sources = [...sourcesOf(loadable)];
      expect(sources).toContain('src/formats/sampling/openai-chat.ts');
      expect(sources.filter((source) => !/^src\/(formats|protocol|errors|util)\//.test(source))).toEqual([]);
    }
    const names = "console.log(Object.keys(m).sort().join(','))";
    const expected =
      'anthropicToSamplingResult,geminiToSamplingResult,openAIChatToSamplingResult,openAIResponsesToSamplingResult,samplingToAnthropic,samplingToGemini,samplingToOpenAIChat,samplingToOpenAIResponses';
    expect(node(['--input-type=module', '-e', `import * as m from 'rxmcp/sampling'; ${names}`]).trim()).toBe(expected);
    expect(node(['-e', `const m = require('rxmcp/sampling'); ${names}`]).trim()).toBe(expected);
  });

  it('serves rxmcp/redis from both builds, with types', () => {
    for (const file of ['esm/redis/index.js', 'esm/redis/index.d.ts', 'cjs/redis/index.js', 'cjs/redis/index.d.ts']) {
      expect(existsSync(join(root, 'dist', file))).toBe(true);
    }
    const names = "console.log(Object.keys(m).sort().join(','))";
    expect(node(['--input-type=module', '-e', `import * as m from 'rxmcp/redis'; ${names}`]).trim()).toBe('RedisGrants,RedisLeaseTable,RedisPins');
    expect(node(['-e', `const m = require('rxmcp/redis'); ${names}`]).trim()).toBe('RedisGrants,RedisLeaseTable,RedisPins');
  });

  it('keeps rxmcp/ai-sdk, rxmcp/langchain and every framework or vendor SDK out of the root entry, statically and on demand, in both builds', () => {
    const foreign = /^(ai|@ai-sdk\/.+|@langchain\/.+|openai|@anthropic-ai\/.+|@google\/genai)(\/.*)?$/;
    for (const format of ['esm', 'cjs']) {
      const loadable = [...everyLoad(join(root, 'dist', format, 'index.js'))];
      expect(loadable.length).toBeGreaterThan(5);
      expect(loadable.filter((file) => foreign.test(file))).toEqual([]);
      expect([...sourcesOf(loadable)].filter((source) => source.startsWith('src/ai-sdk/') || source.startsWith('src/langchain/'))).toEqual([]);
    }
    const probe = "console.log(Object.keys(require.cache).filter((file) => /node_modules[\\\\/](ai|@ai-sdk|@langchain|openai|@anthropic-ai|@google)[\\\\/]/.test(file)).length)";
    expect(node(['-e', `require('rxmcp'); ${probe}`]).trim()).toBe('0');
    const names = "console.log(['toolsForOpenAIChat', 'executeOpenAIChatToolCalls', 'toolsForOpenAIResponses', 'executeOpenAIResponsesToolCalls', 'toolsForAnthropic', 'executeAnthropicToolCalls', 'toolsForGemini', 'executeGeminiToolCalls'].every((name) => typeof m[name] === 'function'))";
    expect(node(['--input-type=module', '-e', `import * as m from 'rxmcp'; ${names}`]).trim()).toBe('true');
  });

  it('serves rxmcp/ai-sdk and rxmcp/langchain from both builds, with types, and their tools run there', () => {
    for (const sub of ['ai-sdk', 'langchain']) {
      for (const file of [`esm/${sub}/index.js`, `esm/${sub}/index.d.ts`, `cjs/${sub}/index.js`, `cjs/${sub}/index.d.ts`]) {
        expect(existsSync(join(root, 'dist', file))).toBe(true);
      }
    }
    const use = (load: string) => `
      ${load}
      const kit = new rxmcp.Toolkit({ name: 'k' }).tool('add', { input: zod.z.object({ a: zod.z.number(), b: zod.z.number() }) }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
      (async () => {
        const set = await ai.aiSdkTools(kit);
        const output = await set.add.execute({ a: 1, b: 2 }, { toolCallId: 'c1', messages: [] });
        const [add] = await lc.langchainTools(kit);
        const message = await add.invoke({ id: 'c2', name: 'add', args: { a: 3, b: 4 }, type: 'tool_call' });
        console.log(Object.keys(ai).join(','), output.text, Object.keys(lc).join(','), message.content, message.status);
      })();`;
    const expected = 'aiSdkTools 3 langchainTools 7 success';
    const esm = "import * as rxmcp from 'rxmcp'; import * as zod from 'zod'; import * as ai from 'rxmcp/ai-sdk'; import * as lc from 'rxmcp/langchain';";
    const cjs = "const rxmcp = require('rxmcp'); const zod = require('zod'); const ai = require('rxmcp/ai-sdk'); const lc = require('rxmcp/langchain');";
    expect(node(['--input-type=module', '-e', use(esm)]).trim()).toBe(expected);
    expect(node(['-e', use(cjs)]).trim()).toBe(expected);
  });

  it('exports the same names from ESM and CommonJS, the contract among them', () => {
    const esm = JSON.parse(node(['--input-type=module', '-e', "import * as m from 'rxmcp'; console.log(JSON.stringify(Object.keys(m).sort()))"]));
    const cjs = JSON.parse(node(['-e', "console.log(JSON.stringify(Object.keys(require('rxmcp')).sort()))"]));
    expect(cjs).toEqual(esm);
    expect(esm).toEqual(expect.arrayContaining(CONTRACT));
  });

  it('shares one copy of each class among its entries, in both builds: what rxmcp/node or rxmcp/gateway throws is the root entry’s own class', () => {
    const use = (load: string) => `
      ${load}
      (async () => {
        const config = await n.readServerConfig('/nonexistent/mcp.json').catch((error) => error);
        let gateway;
        try { new g.Gateway({}); } catch (error) { gateway = error; }
        console.log(config.constructor === m.McpConfigError, gateway.constructor === m.McpClientError, m.McpClient.name, m.McpClientError.name);
      })();`;
    const expected = 'true true McpClient McpClientError';
    expect(node(['--input-type=module', '-e', use("import * as m from 'rxmcp'; import * as n from 'rxmcp/node'; import * as g from 'rxmcp/gateway';")]).trim()).toBe(expected);
    expect(node(['-e', use("const m = require('rxmcp'); const n = require('rxmcp/node'); const g = require('rxmcp/gateway');")]).trim()).toBe(expected);
  });

  it('keeps the name of every class and function each entry exports (McpClient.name is "McpClient"), in both builds', () => {
    const entries = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>)
      .filter((entry) => entry !== './package.json')
      .map((entry) => entry.replace(/^\./, 'rxmcp'));
    const misnamed = (load: string) => `
      (async () => {
        const wrong = [];
        for (const entry of ${JSON.stringify(entries)}) {
          const m = await ${load}(entry);
          for (const [name, value] of Object.entries(m)) if (typeof value === 'function' && value.name !== name) wrong.push(entry + ' ' + name + ' is named ' + value.name);
        }
        console.log(JSON.stringify(wrong));
      })();`;
    expect(JSON.parse(node(['--input-type=module', '-e', misnamed('import')]))).toEqual([]);
    expect(JSON.parse(node(['-e', misnamed('(async (id) => require(id))')]))).toEqual([]);
  });

  it('makes its CommonJS build of the same files as its ESM build, so both share classes among their entries alike', () => {
    const files = (format: string) => readdirSync(join(root, 'dist', format), { recursive: true }).map(String).filter((file) => file.endsWith('.js')).sort();
    expect(files('esm').length).toBeGreaterThan(10);
    expect(files('cjs')).toEqual(files('esm'));
  });

  it('recognises its errors across the two builds', () => {
    const script = `
      const cjs = require('rxmcp');
      import('rxmcp').then((esm) => {
        const error = new cjs.McpTimeoutError('tools/call', 5);
        console.log(error instanceof esm.McpClientError, error.name, error.method, error.timeoutMs);
      });`;
    expect(node(['-e', script]).trim()).toBe('true McpTimeoutError tools/call 5');
  });

  it('recognises each error class, not only the base, across the two builds, with its code', () => {
    const script = `
      const cjs = require('rxmcp');
      import('rxmcp').then((esm) => {
        const error = new cjs.McpTimeoutError('tools/call', 5);
        const protocol = new esm.McpProtocolError('Method not found', -32601);
        console.log(error instanceof esm.McpTimeoutError, error instanceof esm.McpCancelledError, error.code, protocol instanceof cjs.McpProtocolError, protocol.code, cjs.McpProtocolError.code);
      });`;
    expect(node(['-e', script]).trim()).toBe('true false MCP_TIMEOUT true -32601 MCP_PROTOCOL');
  });
});
