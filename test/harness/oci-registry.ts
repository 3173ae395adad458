// A real OCI registry for tests: Debian's `docker-registry` (the distribution registry 2.8, which
// `.ci/run` installs) on 127.0.0.1, storage on the filesystem of a temp dir, deletes enabled; charts
// pushed with the real `helm push --plain-http`. It starts in about 0.15 s, so each test that needs one
// starts its own: two of the chart tests stop theirs or put a token server in front of it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, createPublicKey, randomBytes, sign } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { toolPath } from './tools.js';

const run = promisify(execFile);

export interface OciRegistry {
  /** `127.0.0.1:<port>` */
  readonly host: string;
  /** `oci://127.0.0.1:<port>` */
  readonly url: string;
  /** `helm push <archive> <url>/<path> --plain-http`; returns the manifest digest helm printed. */
  pushChart(archive: string, path: string): Promise<string>;
  /** DELETE of a manifest by digest (the registry then answers 404 for it and its tags). */
  deleteManifest(repository: string, digest: string): Promise<void>;
  /** With `tokenAuth`: every request the token server got (its query, and whether it carried credentials). */
  readonly tokenRequests: { service: string | null; scopes: string[]; authorization: boolean }[];
  /** Stops the process (its PID only); the data stays until `remove`. */
  stop(): Promise<void>;
  /** Stops it and deletes its directory. */
  remove(): Promise<void>;
}

/**
 * The `docker-registry` binary: `GROUNDWORK_DOCKER_REGISTRY`, else the first on `PATH`, else
 * `/usr/bin/docker-registry` (Debian's package; its system service is never used).
 */
export function dockerRegistryPath(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = [
    ...(env.GROUNDWORK_DOCKER_REGISTRY ? [env.GROUNDWORK_DOCKER_REGISTRY] : []),
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter(isAbsolute)
      .map((dir) => join(dir, 'docker-registry')),
    '/usr/bin/docker-registry',
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      "no docker-registry on PATH: install Debian's package (apt-get install docker-registry; .ci/run does) " +
        'or set GROUNDWORK_DOCKER_REGISTRY to a distribution registry 2.x binary',
    );
  return found;
}

/**
 * Starts the registry with a config file of its own in a fresh temp dir (never the package's
 * /etc/docker/registry/config.yml nor its service) and waits until `/v2/` answers. Its environment
 * holds only `PATH` and `HOME` (the temp dir). With `tokenAuth`, the registry runs distribution's
 * token authentication, as ghcr.io, quay.io and Docker Hub do: `401` with
 * `WWW-Authenticate: Bearer realm=...,service=...,scope=...`, and a token server on loopback that
 * hands out signed anonymous tokens (ES256, by a key whose self-signed certificate the registry
 * trusts) for any repository except those whose name starts with `private/` (refused with 401).
 */
export async function startOciRegistry(opts: { tokenAuth?: boolean } = {}): Promise<OciRegistry> {
  const registry = dockerRegistryPath();
  const helm = await toolPath('helm');
  const dir = mkdtempSync(join(tmpdir(), 'gw-oci-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = join(dir, 'config.yml');
  const tokens = opts.tokenAuth ? await startTokenServer(dir) : undefined;
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: ${host}`,
      `  secret: ${randomBytes(16).toString('hex')}`,
      ...(tokens
        ? [
            'auth:',
            '  token:',
            `    realm: ${tokens.realm}`,
            '    service: gw-registry',
            '    issuer: gw-token-server',
            `    rootcertbundle: ${tokens.certificate}`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  const env = { PATH: '/usr/bin:/bin', HOME: dir };
  const child: ChildProcess = spawn(registry, ['serve', config], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-10_000);
  });
  const stop = async () => {
    if (tokens?.server.listening) await new Promise((done) => tokens.server.close(done));
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`registry exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    const ok = await fetch(`http://${host}/v2/`).then(
      // 401: token authentication is on, and the registry is answering.
      (r) => r.ok || r.status === 401,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`registry not ready in 30 s: ${stderr.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // helm writes its registry config and cache under HOME/XDG: a directory of its own.
  const helmHome = join(dir, 'helm-home');
  mkdirSync(helmHome);
  const helmEnv = {
    PATH: '/usr/bin:/bin',
    HOME: helmHome,
    XDG_CONFIG_HOME: join(helmHome, 'config'),
    XDG_CACHE_HOME: join(helmHome, 'cache'),
    XDG_DATA_HOME: join(helmHome, 'data'),
  };
  return {
    host,
    url: `oci://${host}`,
    tokenRequests: tokens?.requests ?? [],
    async pushChart(archive, path) {
      const out = await run(helm, ['push', archive, `oci://${host}/${path}`, '--plain-http'], {
        env: helmEnv,
        timeout: 60_000,
      });
      const digest = /Digest: (sha256:[0-9a-f]{64})/.exec(`${out.stdout}\n${out.stderr}`)?.[1];
      if (!digest) throw new Error(`helm push printed no digest: ${out.stdout} ${out.stderr}`);
      return digest;
    },
    async deleteManifest(repository, digest) {
      const res = await fetch(`http://${host}/v2/${repository}/manifests/${digest}`, { method: 'DELETE' });
      if (res.status !== 202) throw new Error(`DELETE manifest: HTTP ${res.status}`);
    },
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A token server of the distribution token spec on loopback: `GET /token?service=&scope=` answers
 * `{"token": <JWT>}` granting the scopes' actions, signed with a fresh P-256 key (made by openssl)
 * whose self-signed certificate the registry trusts as its `rootcertbundle`; the JWT names the key
 * by its libtrust key ID, as registry 2.x looks keys up; a scope of a `private/...` repository gets 401.
 */
async function startTokenServer(dir: string): Promise<{
  realm: string;
  certificate: string;
  server: Server;
  requests: { service: string | null; scopes: string[]; authorization: boolean }[];
}> {
  const keyFile = join(dir, 'token-key.pem');
  const certificate = join(dir, 'token-cert.pem');
  await run(
    'openssl',
    // prettier-ignore
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certificate, '-days', '2', '-subj', '/CN=gw-token-server'],
    { env: { PATH: '/usr/bin:/bin' }, timeout: 30_000 },
  );
  const privateKey = readFileSync(keyFile, 'utf8');
  const kid = libtrustKeyId(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }));
  const requests: { service: string | null; scopes: string[]; authorization: boolean }[] = [];
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const scopes = url.searchParams.getAll('scope');
    requests.push({
      service: url.searchParams.get('service'),
      scopes,
      authorization: !!req.headers.authorization,
    });
    const access = scopes.map((scope) => {
      const [type, name = '', actions = ''] = scope.split(':');
      return { type, name, actions: actions.split(',') };
    });
    if (url.pathname !== '/token' || access.some((a) => a.name.startsWith('private/'))) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":[{"code":"DENIED"}]}');
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const token = jwt(privateKey, kid, {
      iss: 'gw-token-server',
      sub: '',
      aud: url.searchParams.get('service') ?? '',
      exp: now + 300,
      nbf: now - 10,
      iat: now,
      jti: randomBytes(8).toString('hex'),
      access,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { realm: `http://127.0.0.1:${address.port}/token`, certificate, server, requests };
}

/**
 * docker/libtrust's key ID: the first 240 bits of the SHA-256 of the DER public key, base32 without
 * padding, in groups of four joined by `:` (registry 2.x finds a token's signing key by it).
 */
function libtrustKeyId(spkiDer: Buffer): string {
  const bytes = createHash('sha256').update(spkiDer).digest().subarray(0, 30);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  const base32 = bits
    .match(/.{5}/g)!
    .map((chunk) => alphabet[parseInt(chunk, 2)])
    .join('');
  return base32.match(/.{4}/g)!.join(':');
}

/** An ES256 JWT (JOSE signature encoding: r || s). */
function jwt(key: string, kid: string, claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part({ alg: 'ES256', typ: 'JWT', kid })}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** A port free on 127.0.0.1 now (the kernel's choice, released again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
