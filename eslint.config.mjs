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
          // Apps never import apps; libs never import apps; each app may use contracts, and only tests use testing.
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:contracts'] },
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
  // Domain code knows nothing of how it is stored: the stores map rows to its types (decision 0068).
  {
    files: ['apps/jobs/src/domain/**/*.ts', 'apps/billing/src/job-billing/{billing-state-machine,billing-event-drafts,job-billing}.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['typeorm', '**/database/*'], message: 'domain code does not know how it is stored (decision 0068)' }] }],
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
