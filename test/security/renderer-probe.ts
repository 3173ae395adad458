// A stand-in for helm that does what issue 31's `--post-renderer` script did: it runs inside the
// renderer (as any post-renderer, plugin or hostile chart tool would) and looks for the trusted
// side's secrets everywhere it can: its environment, every /proc/<pid>/environ and cmdline, the
// parent's /proc by PID, planted files, the network (a listening server, the inspector port) and
// signals to the parent. It prints one ConfigMap whose `report` says what it reached, the same
// on every run (helm renders twice).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The secrets a test plants in the trusted side: the values must appear nowhere the renderer writes. */
export interface PlantedSecrets {
  readonly env: Readonly<Record<string, string>>;
  /** A kubeconfig and a home file of the trusted side, holding `fileSecret`. */
  readonly files: readonly string[];
  readonly fileSecret: string;
  /** Every planted value. */
  readonly values: readonly string[];
}

/**
 * Plants secrets in this process (`process.env`: GROUNDWORK_GIT_TOKEN, GROUNDWORK_WEBHOOK_SECRET,
 * SOPS_AGE_KEY) and in files of a fake home (a kubeconfig with a token, a `.git-credentials`), mode
 * 0600. Returns them and a function that removes the variables again.
 */
export function plantSecrets(tag: string): PlantedSecrets & { restore(): void } {
  const mark = `${tag}-${Math.random().toString(36).slice(2)}`;
  const env = {
    GROUNDWORK_GIT_TOKEN: `planted-git-token-${mark}`,
    GROUNDWORK_WEBHOOK_SECRET: `planted-webhook-secret-${mark}`,
    SOPS_AGE_KEY: `AGE-SECRET-KEY-1PLANTED${mark.toUpperCase().replace(/[^A-Z0-9]/g, '')}`,
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const home = mkdtempSync(join(tmpdir(), 'gw-planted-home-'));
  const fileSecret = `planted-kubeconfig-token-${mark}`;
  const kubeconfig = join(home, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: ${fileSecret}\n`,
    {
      mode: 0o600,
    },
  );
  const credentials = join(home, '.git-credentials');
  writeFileSync(credentials, `https://x:${fileSecret}@git.example\n`, { mode: 0o600 });
  return {
    env,
    files: [kubeconfig, credentials],
    fileSecret,
    values: [...Object.values(env), fileSecret],
    restore: () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
}

/** A TCP server on every address of this machine that counts who connects to it. */
export async function listeningServer(): Promise<{
  port: number;
  addresses: string[];
  connections(): number;
  close(): void;
}> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const port = (server.address() as { port: number }).port;
  const addresses = [
    '127.0.0.1',
    ...Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => i!.address),
  ];
  return { port, addresses, connections: () => connections, close: () => server.close() };
}

/** What the probe found, as its ConfigMap reports it. */
export interface ProbeReport {
  /** Planted secret values seen anywhere (environment, /proc, files). */
  secretsSeen: string[];
  /** The result of reading `/proc/<trusted pid>/environ` (an error code, or 'read'). */
  parentEnviron: string;
  /** `kill(<trusted pid>, 0)` and `kill(<trusted pid>, SIGUSR1)`: an error code, or 'sent'. */
  signalParent: string;
  /** Reading each planted file: an error code, or 'read'. */
  files: string[];
  /** Connecting to the listening server on each address, and to 127.0.0.1:9229: an error code or 'connected'. */
  network: string[];
  inspector: string;
  /** What `/` holds. */
  root: string[];
  /** The probe's own user id. */
  uid: number;
}

/**
 * Writes the stand-in helm (`#!/bin/sh` running Node with the probe) into a fresh directory and
 * returns its path. `version` answers `helm version` as helm 3 does.
 */
export function hostileHelm(opts: {
  planted: PlantedSecrets;
  trustedPid: number;
  server: { port: number; addresses: readonly string[] };
}): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-hostile-helm-'));
  chmodSync(dir, 0o755);
  const probe = `
const fs = require('node:fs');
const net = require('node:net');
const planted = ${JSON.stringify(opts.planted.values)};
const files = ${JSON.stringify(opts.planted.files)};
const trustedPid = ${opts.trustedPid};
const targets = ${JSON.stringify(opts.server.addresses.map((a) => [a, opts.server.port]))};
const seen = new Set();
const look = (text) => { for (const p of planted) if (text.includes(p)) seen.add(p); };
look(JSON.stringify(process.env));
for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)))
  for (const f of ['environ', 'cmdline']) { try { look(fs.readFileSync('/proc/' + pid + '/' + f, 'latin1')); } catch {} }
const code = (fn) => { try { fn(); return 'read'; } catch (e) { return e.code || String(e); } };
const parentEnviron = code(() => look(fs.readFileSync('/proc/' + trustedPid + '/environ', 'latin1')));
const filesRead = files.map((f) => code(() => look(fs.readFileSync(f, 'utf8'))));
let signalParent;
try { process.kill(trustedPid, 0); process.kill(trustedPid, 'SIGUSR1'); signalParent = 'sent'; } catch (e) { signalParent = e.code; }
const connect = (host, port) => new Promise((resolve) => {
  const s = net.connect({ host, port, timeout: 2000 });
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('timeout', () => { s.destroy(); resolve('timeout'); });
  s.on('error', (e) => resolve(e.code));
});
(async () => {
  const network = [];
  for (const [h, p] of targets) network.push(await connect(h, p));
  const inspector = await connect('127.0.0.1', 9229);
  const report = { secretsSeen: [...seen].sort(), parentEnviron, signalParent, files: filesRead, network, inspector, root: fs.readdirSync('/').sort(), uid: process.getuid() };
  process.stdout.write(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe-report' }, data: { report: JSON.stringify(report) } }) + '\\n');
})();
`;
  // One file: the renderer is handed the tool's binary, nothing beside it.
  const helm = join(dir, 'helm');
  writeFileSync(
    helm,
    `#!/bin/sh
if [ "$1" = version ]; then echo 'v3.22.0'; exit 0; fi
exec node - <<'PROBE'
${probe}
PROBE
`,
    { mode: 0o755 },
  );
  return helm;
}

/** A platform that records one local chart (so the renderer runs "helm" on it). */
export const CHART_PLATFORM = `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'web', { chart: 'charts/web', namespace: 'web' });
  },
});
`;

/** The files of `CHART_PLATFORM`'s chart. */
export const CHART_FILES = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  a: "1"\n',
};

/** Whether something listens on 127.0.0.1:9229 (a Node inspector that opened). */
export function inspectorPortOpen(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port: 9229 });
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}
