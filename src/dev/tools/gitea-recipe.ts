import type { ToolRecipe } from '../../tools/recipes.js';

/**
 * Gitea, the forge of the notification e2e tests: test machinery, not a tool the product runs, so
 * `groundwork tools list|build` leaves it out. `resolveTool(GITEA_RECIPE)` finds or builds it like
 * the product's tools (never from `PATH`: Gitea reads its templates from its module source). v1.27
 * moved its go.mod to a module path the Go module proxy refuses, so v1.26.0 (checked 2026-11-25).
 */
export const GITEA_RECIPE: ToolRecipe = {
  name: 'gitea',
  module: 'code.gitea.io/gitea',
  version: 'v1.26.0',
  pkg: 'code.gitea.io/gitea',
  envVar: 'GROUNDWORK_GITEA',
  cgo: true,
  tags: ['sqlite', 'sqlite_unlock_notify'],
  ldflags: ['-X main.Version=1.26.0'],
  versionArgs: ['--version'],
  fits: /version 1\.2[6-9]\./,
  needsModuleDir: true,
  coldBuild: 'about 4 minutes',
  buildAhead: 'run a test that needs it once (test/harness/tools.ts builds it on first use)',
};
