// ESLint (npm run lint): rules that catch bugs — undefined names, unused variables and imports,
// unreachable code, duplicate keys, … (@eslint/js recommended) — and none about style, which
// is prettier's (.prettierrc.json).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['web/dist/**', 'build/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      'no-shadow-restricted-names': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-use-before-define': ['error', { functions: false, classes: false, variables: false }],
      'require-atomic-updates': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  // The page runs in the browser; some of web/lib (engine, contract, lesson, stores) also in Node.
  { files: ['web/**/*.mjs'], languageOptions: { globals: { ...globals.browser } } },
  // Issue 31's bounds for the page's code: a file a reader can hold (600 lines), a function one
  // screen (80 lines, comments and blank lines counted).
  {
    files: ['web/**/*.mjs', 'web/**/*.js'],
    rules: { 'max-lines': ['error', { max: 600 }], 'max-lines-per-function': ['error', { max: 80 }] },
  },
  // The page's file:// notice is a classic script (modules do not run from file://).
  { files: ['web/**/*.js'], languageOptions: { sourceType: 'script', globals: { ...globals.browser } } },
  { files: ['web/lib/wasm-module.mjs', 'web/lib/context.mjs'], languageOptions: { globals: { ...globals.node } } },
  // Tools, scripts and tests run in Node; end-to-end tests also pass functions to the page.
  {
    files: ['tools/**/*.mjs', 'scripts/**/*.mjs', 'tests/**/*.mjs', '*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: [
      'tests/e2e/**/*.mjs',
      'tools/bench/page.mjs',
      'tools/bench/browser.mjs',
      'tools/bench/browser-page.mjs',
      'tools/bench/gpt2.mjs',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },
  { files: ['cmake/**/*.mjs'], languageOptions: { globals: { ...globals.node } } },
  // The package's examples: browser code, React's JSX in examples/react.
  {
    files: ['examples/**/*.js', 'examples/**/*.jsx'],
    languageOptions: { globals: { ...globals.browser }, parserOptions: { ecmaFeatures: { jsx: true } } },
  },
];
