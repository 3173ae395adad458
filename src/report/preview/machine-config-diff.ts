import { isPlainObject, type K8sObject } from '../../core/object.js';
import { decodeFileContents, describeContents } from '../../machine-config/file-contents.js';
import { unifiedDiff } from './unified-diff.js';

/**
 * What a MachineConfig writes on a node, as text a reviewer reads: each file's decoded contents
 * (after its mode), each systemd unit (enabled/mask, then contents) and dropin, the kernel
 * arguments one per line, and the kernel type and extensions. Keyed by what a diff header names
 * (`/etc/chrony.conf`, `unit chronyd.service`, `unit x.service dropin 10-a.conf`,
 * `kernelArguments`). Reads the object as it is (hostile input is expected): malformed entries are
 * skipped, contents that are not text are described (`binary, N bytes, sha256 ...`), never shown.
 */
export function machineConfigEntries(obj: K8sObject): Map<string, string> {
  const out = new Map<string, string>();
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const config = isPlainObject(spec.config) ? spec.config : {};
  for (const file of listOf(objectOf(config.storage).files)) {
    if (typeof file.path !== 'string') continue;
    const contents = objectOf(file.contents);
    const decoded = decodeFileContents(contents.source, { compression: contents.compression });
    const mode = typeof file.mode === 'number' ? `mode 0${file.mode.toString(8)}` : 'mode unset';
    const gz = contents.compression === 'gzip' ? ', gzip' : '';
    const body = decoded.kind === 'text' ? decoded.text : `${describeContents(decoded)}\n`;
    out.set(file.path, `# ${mode}${gz}\n${body}`);
  }
  for (const unit of listOf(objectOf(config.systemd).units)) {
    if (typeof unit.name !== 'string') continue;
    const flags = [
      typeof unit.enabled === 'boolean' ? `enabled: ${unit.enabled}` : undefined,
      typeof unit.mask === 'boolean' ? `mask: ${unit.mask}` : undefined,
    ].filter((f) => f !== undefined);
    const contents = typeof unit.contents === 'string' ? unit.contents : '';
    out.set(`unit ${unit.name}`, `${flags.map((f) => `# ${f}\n`).join('')}${contents}`);
    for (const dropin of listOf(unit.dropins)) {
      if (typeof dropin.name !== 'string') continue;
      out.set(
        `unit ${unit.name} dropin ${dropin.name}`,
        typeof dropin.contents === 'string' ? dropin.contents : '',
      );
    }
  }
  const lines = (v: unknown): string =>
    Array.isArray(v) ? v.map((a) => `${String(a)}\n`).join('') : typeof v === 'string' ? `${v}\n` : '';
  for (const field of ['kernelArguments', 'kernelType', 'extensions']) {
    const text = lines(spec[field]);
    if (text) out.set(field, text);
  }
  return out;
}

/**
 * The diff of what a MachineConfig writes on the node, base against head: one unified diff per
 * file, unit, dropin or kernel setting that differs, in name order, with `/dev/null` for one that
 * is added or removed. `''` when nothing the node sees differs (only metadata changed).
 */
export function machineConfigDiff(base: K8sObject | undefined, head: K8sObject | undefined): string {
  const before = base ? machineConfigEntries(base) : new Map<string, string>();
  const after = head ? machineConfigEntries(head) : new Map<string, string>();
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys
    .map((key) =>
      unifiedDiff(before.get(key) ?? '', after.get(key) ?? '', {
        fromName: before.has(key) ? `base:${key}` : '/dev/null',
        toName: after.has(key) ? `head:${key}` : '/dev/null',
      }),
    )
    .join('');
}

function objectOf(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}
