// Type-aware lint: the rules that catch floating promises and unsafe `any` flows matter most here.
import tseslint from 'typescript-eslint';

// Floors: arrows point down only. Each folder names the folders above it (and beside it) that it may not import.
// A relative import is matched at any depth, so `../infra/x` from `domain/a.ts` is caught as `../../infra/x` is from `domain/a/b.ts`.
const FOLDERS = ['service', 'api', 'workers', 'commands', 'projections', 'domain', 'infra'];
const upward = (folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message: `Arrows point down: this folder may not import ${folders.join(', ')}/.`,
});
const floor = (folder, forbidden, extra = []) => ({
  files: [`${folder}/**/*.ts`],
  rules: { 'no-restricted-imports': ['error', { patterns: [upward(forbidden), ...extra] }] },
});
// The HTTP layer runs commands and reads read models; it never folds a stream itself.
const noFolding = { regex: '^(\\.\\./)+commands/handle$', message: 'api/ reads read models or a command’s result; it does not fold streams.' };
const floors = [
  floor('domain', FOLDERS.filter((f) => f !== 'domain'), [{ group: ['node:*'], message: 'domain/ is pure: no I/O.' }]),
  floor('infra', FOLDERS.filter((f) => f !== 'infra')),
  floor('commands', ['service', 'api', 'workers', 'projections']),
  floor('projections', ['service', 'api', 'workers', 'commands']),
  floor('workers', ['service', 'api']),
  floor('api', ['service', 'workers'], [noFolding]),
  // The examples are an integrator's code: they reach the service through its HTTP API only.
  {
    files: ['examples/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ ...upward([...FOLDERS, 'tests', 'bench']), message: 'examples/ use the service through its HTTP API only.' }] }] },
  },
  // Inside api/: only app.ts assembles the public and admin routes; the shared route machinery sits below them.
  {
    files: ['api/*.ts', 'api/middleware/**/*.ts', 'api/schemas/**/*.ts'],
    ignores: ['api/app.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [upward(['service', 'workers']), noFolding, { regex: '^(\\./|\\.\\./)(public|admin)/', message: 'Shared api/ code may not import the public or admin routes.' }] },
      ],
    },
  },
];

export default tseslint.config(
  // examples/billing-api.d.ts is generated (npm run client:types).
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js', '**/*.mjs', 'examples/billing-api.d.ts'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    files: ['domain/**/*.ts', 'commands/**/*.ts', 'projections/**/*.ts', 'api/**/*.ts', 'workers/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Read time from the organisation’s Clock.' },
      ],
    },
  },
  ...floors,
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'domain/ takes time as an argument.' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'domain/ takes ids as arguments.' },
      ],
    },
  },
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
