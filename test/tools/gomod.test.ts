import { describe, expect, it } from 'vitest';
import { goDirective, moduleReplaces, toolBuildGoMod } from '../../src/tools/gomod.js';

// The shape of helm's and Gitea's go.mod: a block and single-line replaces, local ones among them.
const UPSTREAM = `module code.gitea.io/gitea

go 1.25.5

require (
\tgithub.com/a/b v1.0.0
)

replace (
\tgithub.com/hashicorp/go-version => github.com/6543/go-version v1.3.1 // comment
\tgithub.com/nektos/act => gitea.com/gitea/act v0.261.6
\tcode.gitea.io/gitea/modules/x => ./modules/x
)

replace github.com/shurcooL/vfsgen => github.com/lunny/vfsgen v0.0.0-20220105142115-2c99e1ffdfa0

replace example.com/local => ../local
// replace example.com/commented => example.com/other v1.0.0
`;

describe('moduleReplaces', () => {
  it('keeps replaces by another module and drops local directories and comments', () => {
    expect(moduleReplaces(UPSTREAM)).toEqual([
      'github.com/hashicorp/go-version => github.com/6543/go-version v1.3.1',
      'github.com/nektos/act => gitea.com/gitea/act v0.261.6',
      'github.com/shurcooL/vfsgen => github.com/lunny/vfsgen v0.0.0-20220105142115-2c99e1ffdfa0',
    ]);
  });

  it('finds none in a go.mod without replaces', () => {
    expect(moduleReplaces('module a\n\ngo 1.26\n')).toEqual([]);
  });
});

describe('toolBuildGoMod', () => {
  it('requires the release and copies its replaces', () => {
    const mod = toolBuildGoMod({
      name: 'gitea',
      module: 'code.gitea.io/gitea',
      version: 'v1.26.0',
      goVersion: goDirective(UPSTREAM)!,
      upstreamGoMod: UPSTREAM,
    });
    expect(mod).toContain('module groundwork.local/gitea-build\n');
    expect(mod).toContain('go 1.25.5\n');
    expect(mod).toContain('require code.gitea.io/gitea v1.26.0\n');
    expect(mod).toContain('replace github.com/nektos/act => gitea.com/gitea/act v0.261.6\n');
    expect(mod).not.toContain('./modules/x');
  });
});
