import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const MiB = 1024 * 1024;

/** The synth child's V8 heap cap (MiB) when the container has no memory limit, and the largest. */
const DEFAULT_HEAP_CAP_MB = 1024;

/**
 * What the agent keeps for itself under the container's limit (MiB): its steady RSS is 180-235 MB
 * from 1k to 20k managed objects (README, agent benchmark), plus a synth result being parsed.
 */
const AGENT_RESERVE_MB = 384;

/** The smallest cap handed to the child (MiB), however small the limit: a small platform still synthesizes. */
const MIN_HEAP_CAP_MB = 128;

/**
 * The synth child's default V8 heap cap (`--max-old-space-size`, MiB) for a container memory
 * limit of `limitBytes` (`undefined`: no limit, keep `DEFAULT_HEAP_CAP_MB`): three quarters of
 * what the agent leaves, `(limit − AGENT_RESERVE_MB) × 3/4`, between `MIN_HEAP_CAP_MB` and
 * `DEFAULT_HEAP_CAP_MB`. The last quarter covers what a child holds outside its old-space cap
 * (young generation, code, buffers: a child at a 1024 MiB cap reached 1.18 GB RSS), so a platform
 * that exhausts its heap fails synth (`SynthOutOfMemory`) before the container is killed.
 * Pure; `readMemoryLimit` reads the limit.
 *
 * @example
 * heapCapFor(1024 * 1024 * 1024); // 480 (a 1 GiB limit)
 */
export function heapCapFor(limitBytes: number | undefined): number {
  if (limitBytes === undefined) return DEFAULT_HEAP_CAP_MB;
  const cap = Math.floor(((Math.floor(limitBytes / MiB) - AGENT_RESERVE_MB) * 3) / 4);
  return Math.min(DEFAULT_HEAP_CAP_MB, Math.max(MIN_HEAP_CAP_MB, cap));
}

/**
 * The memory limit of this process's container in bytes: cgroup v2 `memory.max`, else cgroup v1
 * `memory/memory.limit_in_bytes`, under `root`. `undefined` when there is no limit (`max`, or v1's
 * page-rounded 2^63) or no cgroup file to read (macOS, a host without cgroup fs). Never throws.
 */
export async function readMemoryLimit(opts: { root?: string } = {}): Promise<number | undefined> {
  const root = opts.root ?? '/sys/fs/cgroup';
  for (const file of [join(root, 'memory.max'), join(root, 'memory', 'memory.limit_in_bytes')]) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    return parseMemoryLimit(text);
  }
  return undefined;
}

/** A cgroup memory limit file's content in bytes; `undefined` for no limit or anything unreadable. */
export function parseMemoryLimit(text: string): number | undefined {
  const value = text.trim();
  if (!/^\d{1,20}$/.test(value)) return undefined; // `max`, or not a limit at all
  const bytes = Number(value);
  // cgroup v1 writes "no limit" as LLONG_MAX rounded down to a page (9223372036854771712).
  return bytes > 0 && bytes < 2 ** 62 ? bytes : undefined;
}

/**
 * The memory the platform child may hold in all (MiB) with a heap cap of `heapMb`: the heap and a
 * quarter more for what lives outside it (young generation, code, Buffers), at least 160 MiB more.
 * Its resident set is polled against it, and every process of the renderer gets it as RLIMIT_DATA
 * (plus room for the renderer's own work), so a Buffer blow-up ends as `SynthOutOfMemory` instead of
 * the kernel's OOM killer. Pure.
 *
 * @example
 * memoryBudgetMb(480); // 640 (a 1 GiB container)
 */
export function memoryBudgetMb(heapMb: number): number {
  return heapMb + Math.max(160, Math.floor(heapMb / 4));
}
