import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  // Type errors are the typecheck script's job; here ts-jest only transpiles,
  // to CommonJS so that jest can load it without experimental flags.
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { tsconfig: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0', isolatedModules: true }, diagnostics: false },
    ],
  },
  moduleNameMapper: {
    '^rxmcp$': '<rootDir>/src/index.ts',
    '^rxmcp/testing$': '<rootDir>/src/testing/index.ts',
    '^rxmcp/node$': '<rootDir>/src/node/index.ts',
    '^rxmcp/redis$': '<rootDir>/src/redis/index.ts',
    '^rxmcp/ai-sdk$': '<rootDir>/src/ai-sdk/index.ts',
    '^rxmcp/langchain$': '<rootDir>/src/langchain/index.ts',
    '^rxmcp/apps$': '<rootDir>/src/apps/index.ts',
    '^rxmcp/browser$': '<rootDir>/src/browser/index.ts',
    '^rxmcp/gateway$': '<rootDir>/src/gateway/index.ts',
    '^rxmcp/protocol$': '<rootDir>/src/protocol/index.ts',
    '^rxmcp/sampling$': '<rootDir>/src/formats/sampling/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // Config files (tokens, pins) in a temporary folder per spec file, not the user's.
  setupFilesAfterEnv: ['<rootDir>/spec/support/private-config-home.ts'],
  testTimeout: 20000,
  reporters: ['default', '<rootDir>/scripts/summary-reporter.cjs'],
};

export default config;
