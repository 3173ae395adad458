// A tiny npm registry for tests: the package documents and tarballs of a few packed packages,
// served on 127.0.0.1 (no internet). It implements the two GETs `npm install` and `npm ci` make:
// the package document (`/<name>`, `/@scope%2fname`) and the tarball (`/<name>/-/<file>.tgz`).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NpmRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Every path requested, in order (package documents and tarballs). */
  requests: string[];
  close(): Promise<void>;
}

interface Packed {
  name: string;
  version: string;
  manifest: Record<string, unknown>;
  file: string;
  tarball: Buffer;
}

/**
 * `npm pack`s each package directory (no scripts run) and serves the tarballs as a registry
 * whose `latest` is the one version of each. Scoped names work too.
 */
export async function startNpmRegistry(packageDirs: readonly string[]): Promise<NpmRegistry> {
  const out = mkdtempSync(join(tmpdir(), 'gw-registry-'));
  for (const dir of packageDirs)
    execFileSync('npm', ['pack', dir, '--ignore-scripts', '--pack-destination', out, '--loglevel=error'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const packed = new Map<string, Packed>();
  for (const file of readdirSync(out).filter((f) => f.endsWith('.tgz'))) {
    const tarball = readFileSync(join(out, file));
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', join(out, file), 'package/package.json'], { encoding: 'utf8' }),
    ) as Record<string, unknown> & { name: string; version: string };
    packed.set(manifest.name, { name: manifest.name, version: manifest.version, manifest, file, tarball });
  }
  const requests: string[] = [];
  let url = '';
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    requests.push(path);
    const tarballMatch = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
    if (tarballMatch) {
      const p = packed.get(tarballMatch[1]!);
      if (!p || p.file !== tarballMatch[2]) return notFound(res);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(p.tarball);
      return;
    }
    const p = packed.get(path.slice(1));
    if (!p) return notFound(res);
    const doc = {
      name: p.name,
      'dist-tags': { latest: p.version },
      versions: {
        [p.version]: {
          ...p.manifest,
          dist: {
            tarball: `${url}${p.name}/-/${p.file}`,
            shasum: createHash('sha1').update(p.tarball).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(p.tarball).digest('base64')}`,
          },
        },
      },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
}
