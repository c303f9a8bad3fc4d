// The dependency rules of docs/architecture.md, checked by dependency-cruiser
// (`npm run arch`, which `npm test` runs first). A wrong import fails with the
// rule's name. The root entry's browser safety is a second pass with its own
// config (.dependency-cruiser-root.cjs), since it is about what runs, not
// about what is written.

// The rooms, lowest first. A room may import its own floor and any room
// below it, never one above it and never a neighbour on its own floor (the
// floor of util/ and errors/ excepted: errors quote with util, util throws
// errors). Subfolders (client/calls, providers/policy, …) belong to their room.
const FLOORS = [
  ['util', 'errors'],
  ['protocol'],
  ['config', 'http'],
  ['auth'],
  ['transport'],
  ['tools'],
  ['client'],
  ['formats', 'providers'],
  ['ai-sdk', 'langchain', 'apps', 'browser', 'node', 'redis', 'testing'],
  ['gateway'],
  ['cli'],
];

const room = (name) => `^src/${name}/`;
const anyOf = (names) => `^src/(${names.join('|')})/`;

function upwardRules() {
  const rules = [];
  FLOORS.forEach((floor, level) => {
    const above = FLOORS.slice(level + 1).flat();
    for (const name of floor) {
      const neighbours = level === 0 ? [] : floor.filter((other) => other !== name);
      const forbidden = [...above, ...neighbours];
      if (forbidden.length === 0) continue;
      rules.push({
        name: `nothing-imports-upward:${name}`,
        comment: `${name}/ may import only the rooms below it (docs/architecture.md); it imported ${forbidden.length === above.length ? 'a room above it' : 'a room above it or beside it'}.`,
        severity: 'error',
        from: { path: room(name) },
        to: { path: anyOf(forbidden) },
      });
    }
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'root-stays-small',
      comment: 'The root entry (src/index.ts) never reaches the subpaths that need Node, a framework or a browser window: cli, gateway, node, redis, testing, apps, browser, ai-sdk, langchain.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { reachable: true, path: anyOf(['cli', 'gateway', 'node', 'redis', 'testing', 'apps', 'browser', 'ai-sdk', 'langchain']) },
    },
    {
      name: 'tools-never-import-client',
      comment: 'The tool kit (tools/) is what every provider imports; it knows nothing of the MCP engine (client/).',
      severity: 'error',
      from: { path: room('tools') },
      to: { path: room('client') },
    },
    {
      name: 'auth-never-knows-calls',
      comment: 'Sign-in (auth/) wraps a fetch; it knows nothing of transports, calls, the tool kit or providers.',
      severity: 'error',
      from: { path: room('auth') },
      to: { path: anyOf(['transport', 'client', 'tools', 'providers', 'formats']) },
    },
    ...upwardRules(),
    {
      name: 'no-circular',
      comment: 'Modules import each other in a circle: split out what both need.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing: a typo, or a file moved without its importers.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-specs-from-src',
      comment: 'Source never imports from spec/, bench/ or scripts/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(spec|bench|scripts|demos)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type imports count: a type from a room above is still an arrow upward.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'], conditionNames: ['import', 'require', 'node', 'default'], exportsFields: ['exports'] },
  },
};
