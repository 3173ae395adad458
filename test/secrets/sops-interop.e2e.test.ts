import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateX25519Identity } from 'age-encryption';
import { parse, parseDocument } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAgeIdentities, type AgeIdentities } from '../../src/secrets/age-identities.js';
import { openText } from './open-text.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import { decryptSopsSecrets } from '../../src/secrets/decrypt-secrets.js';
import { sealSecretFile } from '../../src/secrets/seal-sops.js';
import { sealedText } from '../../src/secrets/sealed-sops.js';
import { SOPS_ANNOTATIONS } from '../../src/secrets/sops-annotations.js';
import { encryptSops } from '../../src/secrets/encrypt-sops.js';
import { groundwork } from '../harness/cli.js';
import { toolPath, useTools } from '../harness/tools.js';

useTools('sops');

// Interop with the real sops v3.13.3 (built by the e2e global setup): files it writes decrypt
// with Groundwork, files Groundwork writes decrypt with it, and its tampered files are refused.

const run = promisify(execFile);
const PLANTED = 'planted-interop-51d0';

let sops: string;
let dir: string;
let keyFile: string;
let ids: AgeIdentities;
let other: AgeIdentities;

/** Runs the real sops in `dir` (no .sops.yaml above it), with our key file; no network. */
async function sopsRun(args: string[]): Promise<string> {
  const { stdout } = await run(sops, args, {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, SOPS_AGE_KEY_FILE: keyFile },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** Encrypts `text` (a file named `name`) with the real sops for `recipients`. */
async function sopsEncrypt(
  name: string,
  text: string,
  extra: string[] = [],
  recipients = ids.recipients,
): Promise<string> {
  writeFileSync(join(dir, name), text);
  return sopsRun(['--encrypt', '--age', recipients.join(','), ...extra, name]);
}

beforeAll(async () => {
  sops = await toolPath('sops');
  dir = mkdtempSync(join(tmpdir(), 'gw-sops-'));
  const identity = await generateX25519Identity();
  keyFile = join(dir, 'keys.txt');
  writeFileSync(keyFile, `# created by the test\n${identity}\n`);
  ids = await parseAgeIdentities(readFileSync(keyFile, 'utf8'));
  other = await parseAgeIdentities(await generateX25519Identity());
}, 600_000);

const YAML_PLAIN = `# a comment sops encrypts
htpasswd: "admin:${PLANTED}"
port: 5432
ratio: 0.5
enabled: true
disabled: false
empty: ""
multi: |
  line one
  line two ${PLANTED}
unicode: "grüße 秘密"
nested:
  list: [a, 2, true]
  deeper:
    token: ${PLANTED}
note_unencrypted: readable
`;

/** A file for SopsSecret: one level of keys to text (numbers quoted), a comment. */
const CLI_PLAIN = `# a comment Groundwork drops
htpasswd: "admin:${PLANTED}"
port: "5432"
multi: |
  line one ${PLANTED}
unicode: "grüße 秘密"
`;

describe('sops v3.13.3 → Groundwork', () => {
  it('decrypts YAML with every value type, nesting, lists, comments and an _unencrypted key', async () => {
    const enc = await sopsEncrypt('flat.sops.yaml', YAML_PLAIN);
    expect(enc).not.toContain(PLANTED);
    expect(await openText(enc, { file: 'flat.sops.yaml', identities: ids })).toEqual(parse(YAML_PLAIN));
  });

  it('decrypts JSON', async () => {
    const plain = { user: 'admin', password: PLANTED, n: 3, f: 1.25, ok: false, list: [{ a: 'b' }] };
    const enc = await sopsEncrypt('x.sops.json', JSON.stringify(plain, null, 2));
    expect(await openText(enc, { file: 'x.sops.json', identities: ids })).toEqual(plain);
  });

  it('decrypts a Secret manifest written with --encrypted-regex, and one with --mac-only-encrypted', async () => {
    const secret = `apiVersion: v1
kind: Secret
metadata:
  name: pull-secret
  namespace: openshift-config
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '{"auths":{"r.example":{"auth":"${PLANTED}"}}}'
`;
    for (const extra of [
      ['--encrypted-regex', '^(data|stringData)$'],
      ['--encrypted-regex', '^stringData$', '--mac-only-encrypted'],
    ]) {
      const enc = await sopsEncrypt('pull.sops.yaml', secret, extra);
      expect(enc).toContain('namespace: openshift-config');
      expect(await openText(enc, { file: 'pull.sops.yaml', identities: ids })).toEqual(parse(secret));
      // And as a SopsSecret: sealed on the render side, decrypted from that data on the trusted side.
      const sealed = sealedText(sealSecretFile(enc, 'pull.sops.yaml'));
      const object = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'pull-secret',
          namespace: 'openshift-config',
          annotations: { [SOPS_ANNOTATIONS.sopsCiphertext]: sealed },
        },
      };
      const result = { platform: 'p', overlay: 'o', hash: '', warnings: [] };
      const open = await decryptSopsSecrets(
        { ...result, manifests: [toManifest(object, 'platform/pull')] },
        async () => ids,
      );
      const data = open.manifests[0]!.object.data as Record<string, string>;
      expect(Buffer.from(data['.dockerconfigjson']!, 'base64').toString()).toContain(PLANTED);
    }
  });

  it('decrypts a file encrypted for two recipients, and after sops set re-encrypts one value', async () => {
    const enc = await sopsEncrypt(
      'two.sops.yaml',
      YAML_PLAIN,
      [],
      [other.recipients[0]!, ids.recipients[0]!],
    );
    writeFileSync(join(dir, 'two.sops.yaml'), enc);
    await sopsRun(['set', 'two.sops.yaml', '["port"]', '6543']);
    const edited = readFileSync(join(dir, 'two.sops.yaml'), 'utf8');
    const want = { ...parse(YAML_PLAIN), port: 6543 };
    expect(await openText(edited, { file: 'two.sops.yaml', identities: ids })).toEqual(want);
    expect(await openText(edited, { file: 'two.sops.yaml', identities: other })).toEqual(want);
  });

  it('refuses its files tampered with (SopsMacMismatch) or for another key (SopsNoMatchingKey), quoting no value', async () => {
    const enc = await sopsEncrypt('t.sops.yaml', YAML_PLAIN);
    const swapped = parseDocument(enc);
    const [a, b] = [swapped.get('htpasswd'), swapped.getIn(['nested', 'deeper', 'token'])];
    swapped.set('htpasswd', b);
    swapped.setIn(['nested', 'deeper', 'token'], a);
    const unencrypted = parseDocument(enc);
    unencrypted.set('note_unencrypted', 'changed');
    const forOther = await sopsEncrypt('o.sops.yaml', YAML_PLAIN, [], other.recipients);
    const cases: [string, string][] = [
      [swapped.toString(), 'SopsMacMismatch'],
      [unencrypted.toString(), 'SopsMacMismatch'],
      [forOther, 'SopsNoMatchingKey'],
    ];
    for (const [text, code] of cases) {
      const err = await openText(text, { file: 't.sops.yaml', identities: ids }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code, subject: 't.sops.yaml' });
      expect(String(err)).not.toContain(PLANTED);
    }
    // sops agrees that the first two are tampered with.
    writeFileSync(join(dir, 'bad.sops.yaml'), unencrypted.toString());
    await expect(sopsRun(['--decrypt', 'bad.sops.yaml'])).rejects.toThrow(/MAC mismatch/);
  });
});

describe('Groundwork → sops v3.13.3', () => {
  it('sops decrypts what encryptSops writes, YAML and JSON, plain and with --encrypted-regex', async () => {
    const tree = parse(YAML_PLAIN) as Record<string, unknown>;
    for (const [name, opts] of [
      ['g.sops.yaml', {}],
      ['g.sops.json', { format: 'json' as const }],
      ['r.sops.yaml', { encryptedRegex: '^(htpasswd|nested)$' }],
    ] as const) {
      writeFileSync(join(dir, name), await encryptSops(tree, { recipients: ids.recipients, ...opts }));
      const out = await sopsRun(['--decrypt', name]);
      expect(parse(out)).toEqual(tree);
    }
  });

  it('sops decrypts what groundwork secret encrypt writes (stdout and --in-place); a bad recipient exits 2', async () => {
    // secret encrypt writes files for SopsSecret: every value text. A number is refused, unwritten.
    writeFileSync(join(dir, 'typed.yaml'), YAML_PLAIN);
    const typed = await groundwork([
      'secret',
      'encrypt',
      join(dir, 'typed.yaml'),
      '--age',
      ids.recipients[0]!,
    ]);
    expect([typed.code, typed.stdout, typed.stderr]).toEqual([
      2,
      '',
      expect.stringContaining('not encrypted as text'),
    ]);
    expect(typed.stderr).not.toContain(PLANTED);
    writeFileSync(join(dir, 'cli.yaml'), CLI_PLAIN);
    const out = await groundwork(['secret', 'encrypt', join(dir, 'cli.yaml'), '--age', ids.recipients[0]!]);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain(PLANTED);
    writeFileSync(join(dir, 'cli.sops.yaml'), out.stdout);
    expect(parse(await sopsRun(['--decrypt', 'cli.sops.yaml']))).toEqual(parse(CLI_PLAIN));
    const inPlace = await groundwork([
      'secret',
      'encrypt',
      join(dir, 'cli.yaml'),
      '--age',
      ids.recipients[0]!,
      '--in-place',
    ]);
    expect(inPlace.code).toBe(0);
    expect(readFileSync(join(dir, 'cli.yaml'), 'utf8')).not.toContain(PLANTED);
    expect(parse(await sopsRun(['--decrypt', 'cli.yaml']))).toEqual(parse(CLI_PLAIN));
    const again = await groundwork(['secret', 'encrypt', join(dir, 'cli.yaml'), '--age', ids.recipients[0]!]);
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('already encrypted')]);
    const bad = await groundwork(['secret', 'encrypt', join(dir, 'typed.yaml'), '--age', 'not-a-key']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('not an age recipient: not-a-key')]);
  });
});
