// The root entry's browser safety (docs/architecture.md): what src/index.ts
// loads when it is imported (static imports that survive compilation; type
// imports and import() left out, as a bundler sees them) reaches no Node
// built-in and no node-only subpath. Node-only code the root uses (stdio's
// child process, the node:http fetch) is loaded with import() when first used.
// `npm run arch` cruises src/index.ts with this config; the built output is
// checked again by spec/package.
const base = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
    {
      name: 'root-never-loads-node-builtins',
      comment: 'The root entry statically loads a Node built-in: load it with import() where it is first needed, or move the code to a node-only subpath.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'root-never-loads-node-only-rooms',
      comment: 'The root entry statically loads a node-only or optional subpath.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/(cli|gateway|node|redis|testing|apps|browser|ai-sdk|langchain)/' },
    },
  ],
  options: {
    ...base.options,
    tsPreCompilationDeps: false,
    exclude: { dynamic: true },
  },
};
