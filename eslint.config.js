// Lint rules, including the import boundaries from STYLE.md:
// only the cluster adapter (src/cluster) talks to @kubernetes/client-node,
// only the git source (src/source) talks to isomorphic-git and ssh2,
// the pure decision layers (plan, health) import no I/O at all,
// and the simulators (src/dev/simulators) import nothing of the product logic they play against.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const clientNode = {
  name: '@kubernetes/client-node',
  message: 'Only src/cluster (the cluster adapter) may import @kubernetes/client-node.',
};
const isoGit = {
  name: 'isomorphic-git',
  message: 'Only src/source (the git source) may import isomorphic-git.',
};
const isoGitPatterns = {
  group: ['isomorphic-git/*'],
  message: 'Only src/source (the git source) may import isomorphic-git.',
};
const sshLib = {
  name: 'ssh2',
  message: 'Only src/source (the git source: its SSH transport) may import ssh2.',
};
const clientNodePatterns = {
  group: ['@kubernetes/client-node/*'],
  message: 'Only src/cluster (the cluster adapter) may import @kubernetes/client-node.',
};
const ioModules = [
  'node:fs',
  'node:fs/promises',
  'node:child_process',
  'node:http',
  'node:https',
  'node:net',
].map((name) => ({
  name,
  message: 'Pure decision code (plan, health) does no I/O; take data as arguments.',
}));

const productLogic = {
  group: [
    '**/olm',
    '**/olm/**',
    '**/cluster-version',
    '**/cluster-version/**',
    '**/machine-config',
    '**/machine-config/**',
  ],
  message:
    'The simulators play OLM, the CVO and the MCO from upstream behaviour, independently of the product code they check: no imports from src/olm, src/cluster-version or src/machine-config.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'scratch/**',
      'out/**',
      'coverage/**',
      'test/fixtures/**',
      'templates/**',
      '.groundwork/**',
      'test/**/golden/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        structuredClone: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [clientNode, isoGit, sshLib], patterns: [clientNodePatterns, isoGitPatterns] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
          message: 'Only src/cli may call process.exit; return an exit code or throw a typed error.',
        },
      ],
    },
  },
  {
    files: ['src/cluster/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [isoGit, sshLib], patterns: [isoGitPatterns] }] },
  },
  {
    files: ['src/source/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [clientNode], patterns: [clientNodePatterns] }] },
  },
  {
    files: ['src/plan/**', 'src/health/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [clientNode, isoGit, sshLib, ...ioModules], patterns: [clientNodePatterns, isoGitPatterns] },
      ],
    },
  },
  {
    files: ['src/dev/simulators/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [clientNode, isoGit, sshLib], patterns: [clientNodePatterns, isoGitPatterns, productLogic] },
      ],
    },
  },
  {
    files: ['src/cli/**', 'bin/**', 'bench/**', 'test/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The command's entry is a CommonJS script (bin/package.json): it starts sooner than a module.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
