import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/node_modules', '**/dist', '.data', '.nx', 'coverage', 'reports'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // Apps never import apps; libs never import apps; the wire contracts depend on nothing else, and
          // the HTTP layer's contracts on the wire contracts only (decision 0073).
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:contracts'] },
            { sourceTag: 'scope:http-contracts', onlyDependOnLibsWithTags: ['scope:contracts'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|describe|test)$/]", message: 'focused tests skip the rest of the suite' },
      ],
    },
  },
  // The web page runs in browsers: no Node built-ins or globals in its sources (the SDK's Node-only
  // paths are dynamic imports it never reaches).
  {
    files: ['apps/web/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'the web page runs in a browser' }] }],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname', '__filename', 'global'],
    },
  },
  // The wire contracts are plain types, names and arithmetic that every service loads: no framework
  // (decision 0073). Validation, Swagger and JSON Schemas live in libs/http-contracts.
  {
    files: ['libs/contracts/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@nestjs/*', 'class-validator', 'class-transformer', 'ajv', 'ajv-*', 'typeorm', 'nats', '@nats-io/*'], message: 'the wire contracts import no framework (decision 0073)' }] },
      ],
    },
  },
  // Only the services that speak HTTP to users load the HTTP layer's contracts (decision 0073).
  {
    files: ['apps/{jobs,billing,render-worker}/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@vj/http-contracts'], message: 'this service does not speak HTTP to users: import @vj/contracts (decision 0073)' }] }],
    },
  },
  // Domain code knows nothing of how it is stored: the stores map rows to its types (decision 0068).
  {
    files: ['apps/jobs/src/domain/**/*.ts', 'apps/billing/src/job-billing/{billing-state-machine,billing-event-drafts,job-billing}.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['typeorm', '**/database/*'], message: 'domain code does not know how it is stored (decision 0068)' },
            { group: ['@vj/http-contracts'], message: 'this service does not speak HTTP to users: import @vj/contracts (decision 0073)' },
          ],
        },
      ],
    },
  },
  // The gateway's feature folders import each other only through their public index.ts (decision 0071).
  {
    files: ['apps/gateway/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(jobs|billing|identity|uploads|webhooks)/', message: "import another gateway feature through its index.ts ('../jobs'), not its files" }] },
      ],
    },
  },
  // Plain CommonJS launchers (run before any TypeScript hook is registered).
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
];
