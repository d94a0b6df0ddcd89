// One Jest run, three levels: unit (*.spec.ts, fakes only), integration (*.int-spec.ts, real
// PostgreSQL, nats-server, S3 server and ffmpeg) and e2e (test/e2e, all four services over HTTP).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^@vj/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts' },
  testPathIgnorePatterns: ['/node_modules/', '/.data/'],
};

module.exports = {
  // testTimeout is a global option in Jest (ignored per project): end-to-end jobs need minutes.
  testTimeout: 120_000,
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,examples,bench,scripts,test}/**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,examples,scripts}/**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
