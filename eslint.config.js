// One linter for the whole tree: typed TypeScript rules everywhere, Lit and Lit a11y rules for the elements.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import globals from 'globals';

export default tseslint.config(
  // A partner's app (test/browser/react-app/) is type-checked by its own tsc, in package-react-app.test.ts.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp-*/**', 'test/browser/react-app/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['widget/**/*.ts', 'extension/**/*.ts'],
    ...lit.configs['flat/recommended'],
    // The widget's elements extend FanElement (LitElement plus its version): the lit rules treat them as Lit's own.
    settings: { lit: { elementBaseClasses: ['FanElement'] } },
  },
  {
    // A pure render and Lit's lifecycle, in the widget's elements.
    files: ['widget/**/*.ts'],
    rules: {
      'lit/lifecycle-super': 'error',
      'lit/no-classfield-shadowing': 'error',
      'lit/no-native-attributes': 'error',
      'lit/no-this-assign-in-render': 'error',
    },
  },
  {
    files: ['widget/**/*.ts', 'extension/**/*.ts'],
    plugins: { 'lit-a11y': litA11y },
    rules: litA11y.configs.recommended.rules,
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  // The examples are plain JavaScript a partner copies, importing the published package by name.
  { files: ['examples/**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
