import { commandTree } from '../../src/cli/main.js';
import { cliReference } from './cli-reference.js';

/** A page of docs/ generated from the code: its path from the repository root and its text. */
export interface GeneratedPage {
  readonly path: string;
  readonly render: () => Promise<string>;
}

/**
 * Every generated page. `npm run docs` writes them (scripts/docs/generate.ts);
 * test/docs/generated-pages.test.ts fails when a committed page differs.
 */
export const GENERATED_PAGES: readonly GeneratedPage[] = [
  { path: 'docs/cli.md', render: async () => cliReference(await commandTree(() => {})) },
];
