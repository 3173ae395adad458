/** The `go` directive of a go.mod (`1.26.0`), or undefined when absent. */
export function goDirective(goMod: string): string | undefined {
  return /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod)?.[1];
}

/** A go file that only exists so `go mod tidy` resolves the commands we build. */
export function toolsGo(packages: readonly string[]): string {
  const imports = packages.map((p) => `\t_ "${p}"`).join('\n');
  return `//go:build tools\n\npackage tools\n\nimport (\n${imports}\n)\n`;
}

/**
 * The `replace` directives of a go.mod whose targets are other modules (`a => b v1.2.3`), as lines
 * for a `replace ( … )` block. Replacements by a local directory (`=> ./x`, `=> ../x`) are dropped:
 * they point into the tool's own source tree, which a module that merely requires it does not have.
 * A module's replaces do not apply when it is required by another module, which is why a build
 * module must copy them.
 */
export function moduleReplaces(goMod: string): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const raw of goMod.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inBlock && line === ')') inBlock = false;
    else if (line === 'replace (') inBlock = true;
    else if (inBlock || line.startsWith('replace ')) {
      const directive = inBlock ? line : line.slice('replace '.length).trim();
      const target = directive.split('=>')[1]?.trim();
      if (target && !target.startsWith('.') && !target.startsWith('/')) out.push(directive);
    }
  }
  return out;
}

/**
 * The go.mod of a throwaway module that builds one tool: it requires `module@version` and copies the
 * tool's own `replace` directives (see `moduleReplaces`). Pure.
 */
export function toolBuildGoMod(opts: {
  name: string;
  module: string;
  version: string;
  goVersion: string;
  upstreamGoMod: string;
}): string {
  return [
    `module groundwork.local/${opts.name}-build`,
    '',
    `go ${opts.goVersion}`,
    '',
    `require ${opts.module} ${opts.version}`,
    '',
    ...moduleReplaces(opts.upstreamGoMod).map((r) => `replace ${r}`),
    '',
  ].join('\n');
}
