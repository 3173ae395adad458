import { compareGoVersions } from '../../../tools/go.js';
import { goDirective } from '../../../tools/gomod.js';

/** Stable releases of a module matching one of `minors` (`['1.36', '1.35']`), newest first. */
export function candidateVersions(all: readonly string[], minors: readonly string[]): string[] {
  const parse = (v: string) => /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return all
    .filter((v) => {
      const m = parse(v);
      return m !== null && minors.includes(`${m[1]}.${m[2]}`);
    })
    .sort((a, b) => {
      const pa = parse(a)!.slice(1).map(Number);
      const pb = parse(b)!.slice(1).map(Number);
      return pb[0]! - pa[0]! || pb[1]! - pa[1]! || pb[2]! - pa[2]!;
    });
}

/**
 * The newest candidate whose go.mod asks for a Go no newer than the local one,
 * so that the build runs with `GOTOOLCHAIN=local`. `readGoMod` fetches a version's go.mod.
 */
export async function newestBuildable(
  candidates: readonly string[],
  localGo: string,
  readGoMod: (version: string) => Promise<string>,
): Promise<{ version: string; goMod: string } | undefined> {
  for (const version of candidates) {
    const goMod = await readGoMod(version);
    const wanted = goDirective(goMod);
    if (!wanted || compareGoVersions(wanted, localGo) <= 0) return { version, goMod };
  }
  return undefined;
}
