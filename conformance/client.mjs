// The client the MCP conformance suite tests (scripts/conformance/run.mjs runs
// it): rxmcp's public API, configured per scenario the way a user would.
//
//   MCP_CONFORMANCE_SCENARIO=tools_call node conformance/client.mjs http://localhost:3001/mcp
//
// The suite passes the server URL last, the scenario's name in
// MCP_CONFORMANCE_SCENARIO, credentials and test data as JSON in
// MCP_CONFORMANCE_CONTEXT, and the spec version under test in
// MCP_CONFORMANCE_PROTOCOL_VERSION. Exits 1 when anything fails, sign-in
// included.
import { firstValueFrom } from 'rxjs';
import { McpClient } from 'rxmcp';

const REDIRECT_URL = 'http://localhost:3000/callback';
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const CLIENT_NAME = 'rxmcp-conformance';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
// rxmcp negotiates the version itself; the one under test goes in the log to compare.
const specVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;

// The suite's authorization server approves at once and redirects; the
// redirect's Location is the callback URL a browser would have landed on.
async function authorize({ url: authorizationUrl }) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization server did not redirect (HTTP ${response.status})`);
  return location;
}

/** The sign-in a user of this scenario's server would configure. */
function authFor(name) {
  switch (name) {
    case 'auth/client-credentials-basic':
      return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
    case 'auth/client-credentials-jwt':
      return {
        grant: 'client_credentials',
        clientId: context.client_id,
        privateKeyJwt: { privateKey: context.private_key_pem, alg: context.signing_algorithm ?? 'ES256' },
      };
    case 'auth/pre-registration':
      return { clientId: context.client_id, clientSecret: context.client_secret, redirectUrl: REDIRECT_URL, authorize };
    // The person signed in to their identity provider before: its ID token is what the suite hands over.
    case 'auth/enterprise-managed-authorization':
      return {
        clientId: context.client_id,
        clientSecret: context.client_secret,
        enterprise: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id, idToken: context.idp_id_token },
      };
    // The platform's token for this workload, as a function would read it afresh.
    case 'auth/wif-jwt-bearer':
      return { clientId: context.client_id, workloadIdentity: { jwt: () => context.valid_jwt } };
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return { ...personSignIn(), dpop: true };
    default:
      return personSignIn();
  }
}

/** A person's sign-in, with a Client ID Metadata Document or a registration. */
function personSignIn() {
  return {
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientMetadata: { client_name: CLIENT_NAME, redirect_uris: [REDIRECT_URL], application_type: 'native' },
    redirectUrl: REDIRECT_URL,
    authorize,
  };
}

/** Client options beyond the URL: answers to the server's questions, and sign-in for protected servers. */
function optionsFor(name) {
  if (name.startsWith('auth/')) return { auth: authFor(name) };
  if (name === 'elicitation-sep1034-client-defaults') {
    // Accepts without filling anything in: the schema's defaults are rxmcp's to apply.
    return { onElicit: () => ({ action: 'accept', content: {} }) };
  }
  if (name === 'sep-2322-client-request-state') {
    return { onElicit: () => ({ action: 'accept', content: { confirmed: true } }) };
  }
  return {};
}

/** Arguments for the suite's tools that need some. */
const ARGUMENTS = {
  add_numbers: { a: 2, b: 3 },
  valid_tool: { region: 'us-west1' },
};

const call = (mcp, name, args = ARGUMENTS[name] ?? {}) => firstValueFrom(mcp.callTool(name, args));

/** What a user of each scenario's server does once connected, given the listed tools. */
const SESSIONS = {
  // Listing is the point: the schema's remote $ref must not be fetched.
  'json-schema-ref-no-deref': async () => {},
  // Hands the listed schema back untouched, to show nothing was stripped.
  'json-schema-2020-12-preservation': async (mcp, tools) => {
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server did not list json_schema_2020_12_tool');
    await call(mcp, 'json_schema_echo', { schema: focal.inputSchema });
  },
  // Every tool rxmcp kept: those with malformed x-mcp-header are not listed.
  'http-invalid-tool-headers': async (mcp, tools) => {
    for (const tool of tools) await call(mcp, tool.name);
  },
  // The calls the scenario names, with its arguments.
  'http-custom-headers': async (mcp) => {
    for (const { name, arguments: args } of context.toolCalls) await call(mcp, name, args);
  },
  // One of everything: a tool call, a resource read, a prompt.
  'http-standard-headers': async (mcp, tools) => {
    const { capabilities } = await firstValueFrom(mcp.describe());
    if (tools[0]) await call(mcp, tools[0].name);
    if (capabilities.resources) {
      const [resource] = await firstValueFrom(mcp.listResources());
      if (resource) await firstValueFrom(mcp.readResource(resource.uri));
    }
    if (capabilities.prompts) {
      const [prompt] = await firstValueFrom(mcp.listPrompts());
      if (prompt) await firstValueFrom(mcp.getPrompt(prompt.name));
    }
  },
  // A call that asks a question alongside one that does not, then the rest.
  'sep-2322-client-request-state': async (mcp) => {
    await Promise.all([call(mcp, 'test_mrtr_echo_state'), call(mcp, 'test_mrtr_unrelated')]);
    await call(mcp, 'test_mrtr_no_state');
    await call(mcp, 'test_mrtr_no_result_type');
  },
};

/**
 * Lists the tools and calls the first, unless the scenario's server calls for
 * more. A server that declared no tools is not asked for them: rxmcp refuses
 * a request for a capability the server left out (McpCapabilityError).
 */
async function session(mcp, name) {
  const { capabilities } = await firstValueFrom(mcp.describe());
  const tools = capabilities.tools ? await firstValueFrom(mcp.listTools()) : [];
  const custom = SESSIONS[name];
  if (custom) await custom(mcp, tools);
  else if (tools[0]) await call(mcp, tools[0].name);
}

// Calls give up well inside the suite's 30 s for the client, so one that is
// never answered fails here with a message instead of being killed silently.
const REQUEST_TIMEOUT_MS = 20_000;

const mcp = McpClient.connectHttp({ url, clientName: CLIENT_NAME, clientVersion: '1.0.0', requestTimeoutMs: REQUEST_TIMEOUT_MS, ...optionsFor(scenario) });
try {
  const server = await firstValueFrom(mcp.describe());
  console.log(`connected: ${server.era} ${server.protocolVersion} (the suite tests ${specVersion})`);
  await session(mcp, scenario);
  console.log('done');
} catch (error) {
  console.error(`${scenario} failed:`, error);
  process.exitCode = 1;
} finally {
  await mcp.close();
}
process.exit();
