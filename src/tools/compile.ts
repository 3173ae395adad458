import { formatElapsed, type Progress } from '../core/progress.js';
import { runGo, type GoRunOptions } from './go.js';

/** How to compile one main package. */
export interface CompileOptions {
  /** The module directory whose go.mod requires the package. */
  moduleDir: string;
  /**
   * The main package's import path, or several: one `go build` then compiles their shared packages
   * once and links the binaries in parallel, into `out` as a directory (each named after its
   * package's last path element).
   */
  pkg: string | readonly string[];
  /** The output file (one package), or the output directory (several). */
  out: string;
  /** `-ldflags`. */
  ldflags: string;
  progress: Progress;
  /** The name progress shows. @default the packages' last path elements */
  name?: string;
  /** Build tags (`-tags`). @default none */
  tags?: readonly string[];
  /** Compile with cgo (Gitea's sqlite needs it). @default false */
  cgo?: boolean;
  env?: GoRunOptions['env'];
  toolchain?: GoRunOptions['toolchain'];
}

/** `go build` of one or more main packages, with progress (packages compiled, elapsed time). */
export async function compile(opts: CompileOptions): Promise<void> {
  const pkgs = typeof opts.pkg === 'string' ? [opts.pkg] : opts.pkg;
  const name = opts.name ?? pkgs.map((p) => p.split('/').at(-1)!).join(', ');
  const out = typeof opts.pkg === 'string' ? opts.out : `${opts.out.replace(/\/+$/, '')}/`;
  const started = Date.now();
  let packages = 0;
  opts.progress.start(`compiling ${name}`);
  const timer = setInterval(
    () =>
      opts.progress.update(`compiling ${name}: ${packages} packages, ${formatElapsed(Date.now() - started)}`),
    1000,
  );
  const tags = opts.tags?.length ? ['-tags', opts.tags.join(' ')] : [];
  try {
    await runGo(['build', '-v', '-trimpath', ...tags, '-ldflags', opts.ldflags, '-o', out, ...pkgs], {
      cwd: opts.moduleDir,
      env: { ...opts.env, CGO_ENABLED: opts.cgo ? '1' : '0', ...cFlags(opts) },
      ...(opts.toolchain ? { toolchain: opts.toolchain } : {}),
      onLine: (line) => {
        if (/^[\w.-]+(\/[\w.~-]+)+$/.test(line)) packages++;
      },
    });
  } finally {
    clearInterval(timer);
  }
  opts.progress.succeed(`compiled ${name} (${packages} packages, ${formatElapsed(Date.now() - started)})`);
}

/**
 * For a cgo build, `CGO_CFLAGS=-O2` instead of Go's default `-O2 -g` unless the caller set them: the
 * same machine code without the C debug information that `-ldflags -w` drops anyway (Gitea's sqlite
 * compiles in about a fifth less CPU).
 */
function cFlags(opts: CompileOptions): NodeJS.ProcessEnv {
  if (!opts.cgo || (opts.env?.CGO_CFLAGS ?? process.env.CGO_CFLAGS) !== undefined) return {};
  return { CGO_CFLAGS: '-O2' };
}
