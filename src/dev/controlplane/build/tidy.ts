import { formatElapsed, type Progress } from '../../../core/progress.js';
import { runGo } from '../../../tools/go.js';

/** `go mod tidy` in `moduleDir`, with progress (modules downloaded, elapsed time). */
export async function tidy(moduleDir: string, what: string, progress: Progress): Promise<void> {
  const started = Date.now();
  let downloads = 0;
  progress.start(`downloading modules for ${what}`);
  await runGo(['mod', 'tidy'], {
    cwd: moduleDir,
    onLine: (line) => {
      const m = /^go: downloading (\S+)/.exec(line);
      if (m)
        progress.update(
          `downloading modules for ${what}: ${++downloads} (${m[1]}), ${formatElapsed(Date.now() - started)}`,
        );
    },
  });
  progress.succeed(
    `modules for ${what} ready (${downloads} downloaded, ${formatElapsed(Date.now() - started)})`,
  );
}
