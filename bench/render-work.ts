// What bench/render-alone.ts and bench/render-steps.ts share: the bench platform written to a
// checkout, and this process's CPU with its waited-for children's.
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM } from './bench-platform-repo.js';

/** This process's CPU (utime+stime) and its waited-for children's (cutime+cstime), ms. */
export function cpuMs(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { self: (f[11]! + f[12]!) * 10, children: (f[13]! + f[14]!) * 10 };
}

/** Writes the bench platform (`PLATFORM`) as a checkout at `dir`, with an empty `overlays/`. */
export async function writeBenchCheckout(dir: string): Promise<void> {
  await mkdir(join(dir, 'platform'), { recursive: true });
  await mkdir(join(dir, 'overlays'), { recursive: true });
  await writeFile(join(dir, 'groundwork.yaml'), 'name: bench\ndefaultOverlay: bench\n');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'platform', 'main.ts'), PLATFORM);
}
