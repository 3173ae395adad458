import { spawn } from 'node:child_process';
import { GroundworkError } from '../core/errors.js';

/** Options for one `go` invocation. */
export interface GoRunOptions {
  cwd: string;
  /** Called with each line the go tool writes to stderr (downloads, `-v` package names, errors). */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** `GOTOOLCHAIN` (e.g. `go1.27.3`, fetched once from the module proxy). @default 'local' */
  toolchain?: string;
}

/**
 * Runs the machine's `go` with `GOTOOLCHAIN=local` (never downloads another toolchain unless
 * `toolchain` names one)
 * and `GOFLAGS=-mod=mod`. Resolves to stdout; rejects with the tail of stderr.
 */
export function runGo(args: readonly string[], opts: GoRunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, {
      cwd: opts.cwd,
      env: {
        ...process.env,
        ...opts.env,
        GOTOOLCHAIN: opts.toolchain ?? 'local',
        GOFLAGS: '-mod=mod',
        GOWORK: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const tail: string[] = [];
    let partial = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 40) tail.shift();
        opts.onLine?.(line);
      }
    });
    child.on('error', (err) =>
      reject(
        new GroundworkError({
          code: 'GoNotFound',
          message: `cannot run go: ${err.message}`,
          fix: 'install Go 1.25+ or point KUBEBUILDER_ASSETS at prebuilt binaries',
          cause: err,
        }),
      ),
    );
    child.on('close', (code) => {
      if (partial) tail.push(partial);
      if (code === 0) resolve(stdout);
      else
        reject(
          new GroundworkError({
            code: 'GoFailed',
            subject: `go ${args.slice(0, 3).join(' ')}`,
            message: `exited ${code}:\n${tail.join('\n')}`,
          }),
        );
    });
  });
}

/** The local Go version as `major.minor.patch`, e.g. `1.26.8`. */
export async function localGoVersion(cwd: string): Promise<string> {
  const out = await runGo(['env', 'GOVERSION'], { cwd });
  return out.trim().replace(/^go/, '');
}

/** All published versions of a module, via the module proxy (`go list -m -versions`). */
export async function moduleVersions(module: string, cwd: string): Promise<string[]> {
  const out = await runGo(['list', '-m', '-versions', '-json', module], { cwd });
  const parsed = JSON.parse(out) as { Versions?: string[] };
  return parsed.Versions ?? [];
}

/** Downloads one module version and returns the path of its go.mod in the module cache. */
export async function downloadGoMod(moduleAtVersion: string, cwd: string): Promise<string> {
  const out = await runGo(['mod', 'download', '-json', moduleAtVersion], { cwd });
  const parsed = JSON.parse(out) as { GoMod?: string; Error?: string };
  if (!parsed.GoMod) throw new GroundworkError({ code: 'GoFailed', message: parsed.Error ?? 'no go.mod' });
  return parsed.GoMod;
}

/** Compares dotted Go versions (`1.26.0` vs `1.26.8`); negative when a < b. */
export function compareGoVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
