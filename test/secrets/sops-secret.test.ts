import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateX25519Identity } from 'age-encryption';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPlatform } from '../../src/render/render-platform.js';
import { parseAgeIdentities, type AgeIdentities } from '../../src/secrets/age-identities.js';
import { decryptSopsSecrets } from '../../src/secrets/decrypt-secrets.js';
import { encryptSops } from '../../src/secrets/encrypt-sops.js';
import { SOPS_ANNOTATIONS } from '../../src/secrets/sops-annotations.js';
import { SynthValidationError, formatIssue } from '../../src/render/synth/validation.js';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';

const PLANTED = 'planted-htpasswd-9c41e';

const platform = (
  secrets: string,
) => `import { Platform, SopsSecret, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    ${secrets}
  },
});
`;

let ids: AgeIdentities;
let flat: string;
let manifest: string;

beforeAll(async () => {
  ids = await parseAgeIdentities(await generateX25519Identity());
  flat = await encryptSops({ htpasswd: `admin:${PLANTED}` }, { recipients: ids.recipients });
  manifest = await encryptSops(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pull-secret', namespace: 'openshift-config' },
      type: 'kubernetes.io/dockerconfigjson',
      stringData: { '.dockerconfigjson': `{"auths":{"r.example":{"auth":"${PLANTED}"}}}` },
    },
    { recipients: ids.recipients, encryptedRegex: '^(data|stringData)$' },
  );
});

describe('SopsSecret', () => {
  it('synth carries only ciphertext; decryption after synth gives the Secret, without the ciphertext annotation', async () => {
    const dir = platformDir(
      platform(`new SopsSecret(p, 'htpass-secret', { file: 'secrets/htpasswd.sops.yaml', namespace: 'openshift-config' });
    new SopsSecret(p, 'pull', { file: 'secrets/pull.sops.yaml' });`),
      { files: { 'secrets/htpasswd.sops.yaml': flat, 'secrets/pull.sops.yaml': manifest } },
    );
    const [result] = await renderPlatform(dir, { overlay: 'dev', domain: 'local' });
    expect(JSON.stringify(result)).not.toContain(PLANTED);
    const sealed = result!.manifests.map((m) => m.object);
    expect(sealed.map((o) => `${o.metadata.namespace}/${o.metadata.name} ${String(o.type)}`).sort()).toEqual([
      'openshift-config/htpass-secret Opaque',
      'openshift-config/pull-secret kubernetes.io/dockerconfigjson',
    ]);
    expect(sealed.every((o) => o.data === undefined)).toBe(true);

    let asked = 0;
    const open = await decryptSopsSecrets(result!, async () => {
      asked++;
      return ids;
    });
    expect(asked).toBe(1);
    const byName = new Map(open.manifests.map((m) => [m.object.metadata.name, m]));
    const htpass = byName.get('htpass-secret')!;
    expect(htpass.object.data).toEqual({ htpasswd: Buffer.from(`admin:${PLANTED}`).toString('base64') });
    expect(htpass.object.metadata.annotations).toEqual({
      [SOPS_ANNOTATIONS.sopsFile]: 'secrets/htpasswd.sops.yaml',
    });
    expect(htpass.hash).toBe(result!.manifests.find((m) => m.id === htpass.id)!.hash); // the ciphertext's hash
    const pull = byName.get('pull-secret')!.object;
    expect(
      Buffer.from((pull.data as Record<string, string>)['.dockerconfigjson']!, 'base64').toString(),
    ).toContain(PLANTED);
  });

  it('groundwork synth writes the ciphertext and never a value', async () => {
    const dir = platformDir(
      platform(`new SopsSecret(p, 's', { file: 'secrets/htpasswd.sops.yaml', namespace: 'ns' });`),
      {
        files: { 'secrets/htpasswd.sops.yaml': flat },
      },
    );
    const out = join(dir, 'out');
    const r = await groundwork(['synth', '--dir', dir, '--out', out]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    const { readdirSync, readFileSync } = await import('node:fs');
    const written = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
      .join('\n');
    expect(written).toContain('ENC[AES256_GCM');
    expect(written + r.stdout + r.stderr).not.toContain(PLANTED);
  });

  it('an encrypted file brought in with Include is refused before plan, not applied as ciphertext', async () => {
    const dir = platformDir(
      `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Include(new Platform(scope, 'platform', { openshiftVersion: '4.16' }), 'pull', { url: 'secrets/pull.sops.yaml' });
  },
});
`,
      { files: { 'secrets/pull.sops.yaml': manifest } },
    );
    const [result] = await renderPlatform(dir, { overlay: 'dev', domain: 'local' });
    const err = await decryptSopsSecrets(result!, async () => ids).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SopsFileInvalid' });
    expect(String(err)).toContain('bring it in with SopsSecret');
    expect(String(err)).not.toContain(PLANTED);
  });

  it('a result without SopsSecret is returned as it is, and no identity is asked for', async () => {
    const result = { platform: 'p', overlay: 'dev', manifests: [], hash: 'h', warnings: [] };
    expect(await decryptSopsSecrets(result, () => Promise.reject(new Error('asked')))).toBe(result);
  });

  it('hostile paths: absolute, "..", missing, not a SOPS file, no namespace: all collected, nothing quoted', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), 'shadow.sops.yaml');
    writeFileSync(outside, `root: ${PLANTED}\n`);
    const dir = platformDir(
      platform(`new SopsSecret(p, 'a', { file: ${JSON.stringify(outside)}, namespace: 'ns' });
    new SopsSecret(p, 'b', { file: '../x/shadow.sops.yaml', namespace: 'ns' });
    new SopsSecret(p, 'd', { file: 'secrets/missing.sops.yaml', namespace: 'ns' });
    new SopsSecret(p, 'e', { file: 'secrets/plain.yaml', namespace: 'ns' });
    new SopsSecret(p, 'f', { file: 'secrets/htpasswd.sops.yaml' });`),
      { files: { 'secrets/plain.yaml': `password: ${PLANTED}\n`, 'secrets/htpasswd.sops.yaml': flat } },
    );
    const err = await renderPlatform(dir, { overlay: 'dev', domain: 'local' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SynthValidationError);
    const issues = (err as SynthValidationError).issues;
    const text = issues.map(formatIssue).join('\n');
    expect(text).not.toContain(PLANTED);
    expect(issues.map((i) => [i.path, i.field])).toEqual([
      ['platform/a', 'file'],
      ['platform/b', 'file'],
      ['platform/d', 'file'],
      ['platform/e', 'file'],
      ['platform/f', 'namespace'],
    ]);
    expect(text).toContain('must be a path inside the repository');
    expect(text).toContain('secrets/missing.sops.yaml does not exist');
    expect(text).toContain('has no `sops` metadata');
    expect(text).toContain('a namespace is required');
  });

  it('a file with a value sops cannot protect is a validation error at the construct, naming file and key', async () => {
    const flatWith = async (extra: string) => {
      const text = await encryptSops({ token: PLANTED }, { recipients: ids.recipients });
      const at = text.indexOf('sops:');
      return `${text.slice(0, at)}${extra}${text.slice(at)}`;
    };
    const dir = platformDir(
      platform(`new SopsSecret(p, 'empty', { file: 'secrets/empty.sops.yaml', namespace: 'ns' });
    new SopsSecret(p, 'readable', { file: 'secrets/readable.sops.yaml', namespace: 'ns' });`),
      {
        files: {
          'secrets/empty.sops.yaml': await flatWith('blank: ""\n'),
          'secrets/readable.sops.yaml': await flatWith(`note_unencrypted: ${PLANTED}\n`),
        },
      },
    );
    const err = await renderPlatform(dir, { overlay: 'dev', domain: 'local' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SynthValidationError);
    const issues = (err as SynthValidationError).issues;
    expect(issues.map((i) => [i.path, i.field])).toEqual([
      ['platform/empty', 'file'],
      ['platform/readable', 'file'],
    ]);
    const text = issues.map(formatIssue).join('\n');
    expect(text).toContain('the value at blank is empty');
    expect(text).toContain('the value at note_unencrypted is not encrypted');
    expect(text).not.toContain(PLANTED);
  });

  it('a link out of the repository is refused, and what it points at is never read into synth', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), 'shadow.sops.yaml');
    writeFileSync(outside, flat);
    const dir = platformDir(
      platform(`new SopsSecret(p, 'c', { file: 'secrets/link.sops.yaml', namespace: 'ns' });`),
    );
    mkdirSync(join(dir, 'secrets'), { recursive: true });
    symlinkSync(outside, join(dir, 'secrets/link.sops.yaml'));
    const err = await renderPlatform(dir, { overlay: 'dev', domain: 'local' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SymlinkOutsideCheckout', subject: 'secrets/link.sops.yaml' });
  });
});
