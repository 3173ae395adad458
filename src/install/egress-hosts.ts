import { stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { GroundworkError } from '../core/errors.js';
import { readChartLock } from '../render/helm/chart-lock.js';
import { NPM_REGISTRY } from '../source/dependencies/lockfile-check.js';

/** A host the agent may reach (`--egress-host host[:port]`), by name or IP address. */
export interface EgressHost {
  /** A DNS name (lower case) or an IP address (IPv6 without brackets). */
  host: string;
  /** @default 443 */
  port: number;
}

/** A host the agent connects to for this platform, and why (one reason per use). */
export interface EgressNeed extends EgressHost {
  why: string[];
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Reads one `--egress-host` value: `host`, `host:port`, `[v6]` or `[v6]:port`, where host is a DNS
 * name (letters, digits, hyphens; at most 253 characters) or an IP address; the port defaults to
 * 443. Anything else (a CIDR, a URL, a wildcard, user info, spaces or control characters, port 0)
 * is refused with `InvalidFlag`, quoting the value escaped and cut: NetworkPolicies know addresses
 * only, so the host is resolved at bootstrap and a range belongs in `--egress-cidr`.
 */
export function parseEgressHost(value: string): EgressHost {
  const refuse = (why: string) =>
    new GroundworkError({
      code: 'InvalidFlag',
      subject: '--egress-host',
      message: `${JSON.stringify(value.slice(0, 80))}${value.length > 80 ? '…' : ''} ${why}`,
      fix: 'pass a host name or IP address with an optional port (registry.npmjs.org, charts.example.com:8443, [2001:db8::1]:443); put address ranges in --egress-cidr',
    });
  if (value.length > 300) throw refuse('is too long');
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(value);
  if (!m) throw refuse('is not host[:port]');
  const port = m[3] === undefined ? 443 : Number(m[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw refuse('has a port outside 1-65535');
  if (m[1] !== undefined) {
    if (isIP(m[1]) !== 6) throw refuse('is not an IPv6 address in brackets');
    return { host: m[1].toLowerCase(), port };
  }
  const host = m[2]!.toLowerCase().replace(/\.$/, '');
  if (isIP(host) === 4) return { host, port };
  if (host.includes('/')) throw refuse('is a range or a path: a CIDR goes in --egress-cidr');
  const labels = host.split('.');
  if (host.length > 253 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!))
    throw refuse('is not a host name or IP address');
  return { host, port };
}

/**
 * The hosts the agent connects to for the platform checked out in `dir`, beside the apiserver and
 * git: the npm registry (`npmRegistry`, npm's by default) when the repository has a
 * `package-lock.json` (the agent runs `npm ci`), and each remote chart's repository and archive
 * hosts from `groundwork-charts.lock.yaml` (`oci://` on 443). Hosts a server redirects to (an
 * OCI registry's blob storage) are not known here. Sorted by host.
 */
export async function egressNeeds(dir: string, npmRegistry = NPM_REGISTRY): Promise<EgressNeed[]> {
  const needs = new Map<string, EgressNeed>();
  const add = (url: string, why: string) => {
    const u = new URL(url.startsWith('oci://') ? `https://${url.slice('oci://'.length)}` : url);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const port = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
    const key = `${host}:${port}`;
    const need = needs.get(key) ?? { host, port, why: [] };
    if (!need.why.includes(why)) need.why.push(why);
    needs.set(key, need);
  };
  const hasLock = await stat(join(dir, 'package-lock.json')).then(
    (s) => s.isFile(),
    () => false,
  );
  if (hasLock) add(npmRegistry, 'npm ci of package-lock.json');
  for (const chart of (await readChartLock(dir)).charts) {
    add(chart.repo, `chart ${chart.name} ${chart.version}`);
    add(chart.url, `chart ${chart.name} ${chart.version}`);
  }
  return [...needs.values()].sort((a, b) => a.host.localeCompare(b.host) || a.port - b.port);
}
