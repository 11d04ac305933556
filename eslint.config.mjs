// Type-aware lint: the rules that catch floating promises and unsafe `any` flows matter most here.
import tseslint from 'typescript-eslint';

// Floors: arrows point down only. Each folder names the folders above it (and beside it) that it may not import.
// A relative import is matched at any depth, so `../infra/x` from `domain/a.ts` is caught as `../../infra/x` is from `domain/a/b.ts`.
const FOLDERS = ['service', 'demo', 'api', 'workers', 'commands', 'projections', 'domain', 'infra'];
const upward = (folders, message = `Arrows point down: this folder may not import ${folders.join(', ')}/.`) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message,
});
const restricted = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });
// The HTTP layer runs commands and reads read models; it never folds a stream itself.
const noFolding = { regex: '^(\\.\\./)+commands/plumbing/handle$', message: 'api/ reads read models or a command’s result; it does not fold streams.' };
// What each folder may not import. A narrower block of files replaces a wider one's patterns, so the floors inside a folder repeat its own.
const refused = {
  domain: [upward(FOLDERS.filter((f) => f !== 'domain')), { group: ['node:*'], message: 'domain/ is pure: no I/O.' }],
  infra: [upward(FOLDERS.filter((f) => f !== 'infra'))],
  // The demonstration accounting system is an application of its own: it uses the adapters' building blocks, nothing of the engine.
  demo: [upward(['service', 'api', 'workers', 'commands', 'projections', 'domain'])],
  commands: [upward(['service', 'demo', 'api', 'workers', 'projections'])],
  projections: [upward(['service', 'demo', 'api', 'workers', 'commands'])],
  workers: [upward(['service', 'demo', 'api'])],
  api: [upward(['service', 'demo', 'workers']), noFolding],
  // The examples are an integrator's code: they reach the service through its HTTP API only.
  examples: [{ ...upward([...FOLDERS, 'tests', 'bench']), message: 'examples/ use the service through its HTTP API only.' }],
};
/** The floors inside a folder: each sub-folder (by its path there) with the sub-folders it may not import, beside what the folder may not. */
const inside = (folder, floors) =>
  Object.entries(floors).map(([sub, forbidden]) => restricted([`${folder}/${sub}/**/*.ts`], [...refused[folder], upward(forbidden, `Arrows point down inside ${folder}/: ${sub}/ may not import ${forbidden.join(', ')}/.`)]));

// commands/: the plumbing (handle, bound handlers, kept states, ids, loaders) at the bottom; above it one folder per feature, none
// importing another; above those the two that act through other features: sandbox/ copies the catalogue and customers, subscription/
// creates its customer and bills its usage.
const COMMAND_FEATURES = ['accounting', 'api-key', 'catalogue', 'customer', 'organisation', 'usage', 'webhook'];
const COMMAND_PROCESSES = ['sandbox', 'subscription'];
const others = (all, one) => all.filter((f) => f !== one);
const commandFloors = {
  plumbing: [...COMMAND_FEATURES, ...COMMAND_PROCESSES],
  ...Object.fromEntries(COMMAND_FEATURES.map((f) => [f, [...others(COMMAND_FEATURES, f), ...COMMAND_PROCESSES]])),
  ...Object.fromEntries(COMMAND_PROCESSES.map((f) => [f, others(COMMAND_PROCESSES, f)])),
};
// projections/, top to bottom: the auditors' and commands' reads; the usage event id index; the read models; the engine that runs them.
const PROJECTION_FLOORS = ['queries', 'usage-ids', 'read-models', 'engine'];
const projectionFloors = Object.fromEntries(PROJECTION_FLOORS.slice(1).map((f, i) => [f, PROJECTION_FLOORS.slice(0, i + 1)]));

const floors = [
  ...Object.entries(refused).map(([folder, patterns]) => restricted([`${folder}/**/*.ts`], patterns)),
  ...inside('commands', commandFloors),
  ...inside('projections', projectionFloors),
  // Inside api/: only app.ts assembles the public and admin routes; the shared route machinery sits below them.
  restricted(
    ['api/*.ts', 'api/middleware/**/*.ts', 'api/schemas/**/*.ts'],
    [...refused.api, { regex: '^(\\./|\\.\\./)(public|admin)/', message: 'Shared api/ code may not import the public or admin routes.' }],
    ['api/app.ts'],
  ),
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
