// Lint: the boundaries between packages and the promise and switch rules a reviewer would
// otherwise check by hand (the house style: boundaries a tool checks).
import tseslint from 'typescript-eslint';

const typed = {
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
};

/** A package may import only these of ours (DESIGN.md, "Packages"). */
function boundary(files, allowed, extra = []) {
  const ours = ['protocol', 'bridge', 'cli', 'web', 'durable-sdk', 'nerve', 'testkit', 'acp-bridge'].filter((p) => !allowed.includes(p));
  return {
    files,
    ignores: ['**/*.test.ts', '**/*.test.tsx'], // tests may use the test kit
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...ours.map((p) => ({ group: [`@collie/${p}`, `@collie/${p}/*`], message: `this package may not import @collie/${p}` })),
            { group: ['../../*/src/*', '../../../*/src/*'], message: "reach another package through its exports, not its files" },
            ...extra,
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.artifacts/**', 'bench/**', 'scripts/**', '**/*.mjs', '**/*.js'] },
  {
    files: ['packages/**/*.ts', 'packages/**/*.tsx'],
    extends: [tseslint.configs.base],
    ...typed,
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  boundary(['packages/protocol/src/**'], [], [{ group: ['node:*'], message: 'the protocol stays portable: no node:* imports' }]),
  boundary(['packages/bridge/src/**'], ['protocol']),
  boundary(['packages/cli/src/**'], ['protocol']),
  boundary(['packages/durable-sdk/src/**', 'packages/durable-sdk/examples/**'], ['protocol']),
  boundary(['packages/nerve/src/**'], ['protocol', 'durable-sdk']),
  boundary(['packages/acp-bridge/src/**'], ['protocol', 'durable-sdk']),
  boundary(['packages/web/src/**'], ['protocol'], [{ group: ['node:*'], message: 'browser code: no node:* imports' }]),
);
