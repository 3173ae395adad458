import { posix } from 'node:path';

/**
 * Checks the API server does not make: a MachineConfig's `spec.config` is free-form, so a bad one is
 * accepted and only surfaces later as `RenderDegraded` on the pool or a degraded node. Each check
 * returns a problem (message and fix) or undefined; callers attach the prop path.
 */
export interface Problem {
  readonly message: string;
  readonly fix?: string;
}

/** The file that forces the machine-config daemon past validation; never writable through a MachineConfig. */
const MCD_FORCE_FILE = '/run/machine-config-daemon-force';

/** systemd unit types Ignition accepts (`.snapshot` is gone from systemd). */
const UNIT_SUFFIXES = [
  '.service',
  '.socket',
  '.device',
  '.mount',
  '.automount',
  '.swap',
  '.target',
  '.path',
  '.timer',
  '.slice',
  '.scope',
] as const;

/** The largest rendered MachineConfig the MCO accepts (`MaxMachineConfigSize`, 1.5 MiB). */
export const MAX_MACHINE_CONFIG_BYTES = 1_572_864;

/** An absolute, clean path to a file the daemon can write. */
export function filePathProblem(path: string): Problem | undefined {
  const clean = path.startsWith('/') ? posix.normalize(path).replace(/\/+$/, '') : undefined;
  if (!path.startsWith('/'))
    return {
      message: `path ${JSON.stringify(path)} must be absolute`,
      fix: `write ${posix.normalize(`/${path}`).replace(/(.)\/+$/, '$1')}`,
    };
  if (path.includes('\0')) return { message: 'path must not contain a NUL character' };
  if (path === '/') return { message: 'path must name a file, not the root directory' };
  if (path.endsWith('/'))
    return {
      message: `path ${JSON.stringify(path)} must not end with "/" (that names a directory)`,
      fix: `write ${clean}`,
    };
  if (path.includes('//'))
    return { message: `path ${JSON.stringify(path)} must not contain "//"`, fix: `write ${clean}` };
  if (path.split('/').some((s) => s === '.' || s === '..')) {
    return {
      message: `path ${JSON.stringify(path)} must be clean: no "." or ".." segments`,
      fix: clean && clean !== '/' ? `write ${clean}` : 'name the file directly',
    };
  }
  if (path === MCD_FORCE_FILE)
    return {
      message: `${MCD_FORCE_FILE} cannot be created through a MachineConfig (the MCO refuses it)`,
      fix: 'remove this file',
    };
  if (path.startsWith('/usr/') && !path.startsWith('/usr/local/')) {
    return {
      message: `${path} is under /usr, which is read-only on RHCOS: the daemon cannot write it`,
      fix: 'write under /etc, or /usr/local (which is /var/usrlocal)',
    };
  }
  return undefined;
}

const MODE_FIX = "write an octal string such as '0644' or a literal such as 0o644";

/**
 * A file mode from a number (taken as the mode value itself, so write `0o644`) or a string (parsed
 * as octal: `'0644'`, `'644'`, `'0o644'`). The MCO accepts at most `0o777`: no setuid, setgid or
 * sticky bit. `644` as a number is 0o1204 and is rejected with a fix suggesting `'0644'`.
 */
export function parseMode(mode: number | string): { value: number } | { problem: Problem } {
  if (typeof mode === 'number') {
    if (!Number.isInteger(mode) || mode < 0)
      return { problem: { message: `mode ${mode} must be a whole number from 0 to 0o777`, fix: MODE_FIX } };
    if (mode <= 0o777) return { value: mode };
    const digits = String(mode);
    const fix = /^[0-7]{3}$/.test(digits)
      ? `did you mean octal ${digits}? write '0${digits}' or 0o${digits}`
      : MODE_FIX;
    return {
      problem: {
        message: `mode ${mode} is larger than 0o777 (511): numbers are taken as the mode value itself`,
        fix,
      },
    };
  }
  const m = /^(?:0o|0)?([0-7]{1,4})$/.exec(mode.trim());
  if (!m)
    return { problem: { message: `mode ${JSON.stringify(mode)} is not an octal number`, fix: MODE_FIX } };
  const value = parseInt(m[1]!, 8);
  if (value > 0o777)
    return {
      problem: {
        message: `mode ${mode} has setuid, setgid or sticky bits, which the MCO rejects (at most 0777)`,
        fix: 'drop the leading special bits, e.g. 0755',
      },
    };
  return { value };
}

/** A systemd unit name with a known type suffix and no path separator. */
export function unitNameProblem(name: string): Problem | undefined {
  if (name.includes('/') || /\s/.test(name))
    return { message: `unit name ${JSON.stringify(name)} must not contain "/" or whitespace` };
  const suffix = UNIT_SUFFIXES.find((s) => name.endsWith(s));
  if (!suffix || name.length === suffix.length) {
    return {
      message: `unit name ${JSON.stringify(name)} needs a systemd unit type suffix (${UNIT_SUFFIXES.join(', ')})`,
      fix: `e.g. ${name || 'example'}.service`,
    };
  }
  return undefined;
}

/** A drop-in file name: `<something>.conf`, no path separator. */
export function dropinNameProblem(name: string): Problem | undefined {
  if (name.includes('/') || /\s/.test(name))
    return { message: `drop-in name ${JSON.stringify(name)} must not contain "/" or whitespace` };
  if (!name.endsWith('.conf') || name === '.conf')
    return {
      message: `drop-in name ${JSON.stringify(name)} must end in ".conf" (systemd ignores other files)`,
      fix: `e.g. ${name.replace(/\.[^.]*$/, '') || '10-override'}.conf`,
    };
  return undefined;
}

/** systemd's LINE_MAX, which Ignition's unit parser (go-systemd) enforces. */
const UNIT_LINE_MAX = 2048;

/**
 * The unit file syntax errors Ignition's parser (go-systemd `unit.Deserialize`) rejects: a section
 * header without `]` or with text after it, an option line without `=`, a line of 2048 bytes or
 * more. Lines before the first section are skipped, as that parser does.
 */
export function unitContentsProblem(contents: string): Problem | undefined {
  const lines = contents.split('\n').map((l) => l.replace(/\r$/, ''));
  let inSection = false;
  let continued = false;
  for (const [i, raw] of lines.entries()) {
    const where = `unit file line ${i + 1}`;
    if (Buffer.byteLength(raw) >= UNIT_LINE_MAX)
      return {
        message: `${where} is ${Buffer.byteLength(raw)} bytes; systemd lines must be shorter than ${UNIT_LINE_MAX}`,
        fix: 'split it with a trailing "\\"',
      };
    const line = raw.trim();
    if (continued) {
      continued = line !== '' && raw.replace(/ +$/, '').endsWith('\\');
      continue;
    }
    if (line === '') continue;
    if (line.startsWith('#') || line.startsWith(';')) {
      continued = raw.replace(/ +$/, '').endsWith('\\');
      continue;
    }
    if (line.startsWith('[')) {
      const close = line.indexOf(']');
      if (close < 0)
        return {
          message: `${where}: section header ${JSON.stringify(line)} has no closing "]"`,
          fix: 'write [Unit], [Service], [Install], …',
        };
      if (line.slice(close + 1).trim() !== '')
        return {
          message: `${where}: text after the section header ${JSON.stringify(line.slice(0, close + 1))}`,
          fix: 'put options on their own lines',
        };
      inSection = true;
      continue;
    }
    if (!inSection) continue;
    if (!line.includes('='))
      return {
        message: `${where}: ${JSON.stringify(line.slice(0, 40))} is not an option (Name=value), a [Section] or a comment`,
        fix: 'write Name=value',
      };
    continued = raw.endsWith('\\');
  }
  return undefined;
}

/** Names the MCO and the installer generate; a user MachineConfig with one of them would fight them. */
export function reservedNameProblem(name: string): Problem | undefined {
  if (/^rendered-|^0[01]-|-generated-|^99-[a-z0-9.-]+-(ssh|fips)$/.test(name)) {
    return {
      message: `name ${JSON.stringify(name)} is reserved for MachineConfigs the MCO or the installer generate`,
      fix: 'choose another construct id or set name',
    };
  }
  return undefined;
}
