import { formatElapsed, type Progress } from '../core/progress.js';
import { runGo, type GoRunOptions } from './go.js';

/** How to compile one main package. */
export interface CompileOptions {
  /** The module directory whose go.mod requires the package. */
  moduleDir: string;
  /** The main package's import path. */
  pkg: string;
  /** The output file. */
  out: string;
  /** `-ldflags`. */
  ldflags: string;
  progress: Progress;
  /** The name progress shows. @default the package's last path element */
  name?: string;
  /** Build tags (`-tags`). @default none */
  tags?: readonly string[];
  /** Compile with cgo (Gitea's sqlite needs it). @default false */
  cgo?: boolean;
  env?: GoRunOptions['env'];
  toolchain?: GoRunOptions['toolchain'];
}

/** `go build` of one main package, with progress (packages compiled, elapsed time). */
export async function compile(opts: CompileOptions): Promise<void> {
  const name = opts.name ?? opts.pkg.split('/').at(-1)!;
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
    await runGo(['build', '-v', '-trimpath', ...tags, '-ldflags', opts.ldflags, '-o', opts.out, opts.pkg], {
      cwd: opts.moduleDir,
      env: { ...opts.env, CGO_ENABLED: opts.cgo ? '1' : '0' },
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
