import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptConfigFor, isAgeRecipient, resolveEncryptConfig } from '../../src/secrets/encrypt-config.js';
import {
  creationRuleFor,
  findSopsConfig,
  loadSopsConfig,
  type SopsConfig,
} from '../../src/secrets/sops-config.js';

const R1 = 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p';
const R2 = 'age1lggyhqrw2nlhcxprm67z43rta597azn8gknawjehu9d9dl0jq3yqqvfafg';

const config = (rules: SopsConfig['rules']): SopsConfig => ({ path: '/repo/.sops.yaml', rules });

describe('creationRuleFor (as sops matches creation rules)', () => {
  it('the first rule whose path_regex matches the path relative to the .sops.yaml, or that has none', () => {
    const c = config([
      { path_regex: '^prod/.*\\.yaml$', age: R1 },
      { path_regex: 'dev/', age: R2 },
      { age: R1 },
    ]);
    expect(creationRuleFor(c, '/repo/prod/a.yaml')?.index).toBe(0);
    // Unanchored, as Go's MatchString: dev/ anywhere.
    expect(creationRuleFor(c, '/repo/x/dev/a.yaml')?.index).toBe(1);
    expect(creationRuleFor(c, '/repo/other.json')?.index).toBe(2);
    // Outside the config's directory the absolute path is matched.
    expect(
      creationRuleFor(config([{ path_regex: '^/elsewhere/', age: R1 }]), '/elsewhere/a.yaml')?.index,
    ).toBe(0);
  });

  it('no rule matching, or a path_regex sops would not compile, is SopsConfigInvalid naming the file; no creation_rules is none', () => {
    expect(() => creationRuleFor(config([{ path_regex: '^prod/', age: R1 }]), '/repo/dev/a.yaml')).toThrow(
      expect.objectContaining({ code: 'SopsConfigInvalid', subject: '/repo/.sops.yaml' }),
    );
    expect(() => creationRuleFor(config([{ path_regex: '(?<=x)a', age: R1 }]), '/repo/a')).toThrow(
      /creation_rules\[0\]\.path_regex is not a regular expression sops/,
    );
    expect(creationRuleFor(config(undefined), '/repo/a.yaml')).toBeUndefined();
  });
});

describe('resolveEncryptConfig (sops getEncryptConfig)', () => {
  const rule = (r: Record<string, unknown>) => ({ config: '/repo/.sops.yaml', index: 0, rule: r });

  it('recipients from --age over the rule; crypt rule from its flag over the rule field', () => {
    const r = rule({ age: `${R1}, ${R2}`, unencrypted_regex: '^metadata$', mac_only_encrypted: true });
    const fromRule = resolveEncryptConfig(r, {});
    expect(fromRule).toMatchObject({
      recipients: [R1, R2],
      macOnlyEncrypted: true,
      from: '/repo/.sops.yaml creation_rules[0]',
    });
    expect(fromRule.rules).toMatchObject({ unencryptedRegex: expect.anything() });
    expect(resolveEncryptConfig(r, { age: R2 })).toMatchObject({ recipients: [R2], from: '--age' });
    expect(() => resolveEncryptConfig(r, { encryptedRegex: '^data$' })).toThrow(
      /more than one of encrypted_suffix, unencrypted_suffix, encrypted_regex, unencrypted_regex/,
    );
    expect(resolveEncryptConfig(rule({ age: [R1], key_groups: null }), {}).recipients).toEqual([R1]);
    expect(resolveEncryptConfig(rule({ key_groups: [{ age: [R2] }] }), {}).recipients).toEqual([R2]);
  });

  it('refuses a rule for keys Groundwork cannot encrypt for, rather than a file its readers cannot open', () => {
    for (const r of [
      { age: R1, pgp: 'FBC7B9E2A4F9289AC0C1D4843D16CEE4A27381B4' },
      { key_groups: [{ age: [R1] }, { age: [R2] }] },
      { key_groups: [{ age: [R1], kms: [{ arn: 'x' }] }] },
      { age: R1, shamir_threshold: 2 },
      { age: R1, encrypted_comment_regex: 'x' },
      { age: 'age1notarecipient' },
    ])
      expect(() => resolveEncryptConfig(rule(r), {}), JSON.stringify(r)).toThrow(
        expect.objectContaining({ code: 'SopsConfigInvalid' }),
      );
    expect(() => resolveEncryptConfig(undefined, {})).toThrow(
      expect.objectContaining({ code: 'MissingFlag' }),
    );
    expect(() => resolveEncryptConfig(undefined, { age: 'x' })).toThrow(
      expect.objectContaining({ code: 'InvalidFlag', subject: '--age' }),
    );
    expect(() => resolveEncryptConfig(undefined, { age: R1, encryptedRegex: '(?<=a)b' })).toThrow(
      expect.objectContaining({ code: 'InvalidFlag' }),
    );
  });

  it('isAgeRecipient checks the bech32 checksum too', () => {
    expect(isAgeRecipient(R1)).toBe(true);
    expect(isAgeRecipient(`${R1.slice(0, -1)}q`)).toBe(false);
  });
});

describe('finding and reading .sops.yaml', () => {
  it('the nearest .sops.yaml from the file up; a .sops.yml is ignored with a warning; --config and SOPS_CONFIG win', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-sops-config-'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(
      join(root, '.sops.yaml'),
      `creation_rules:\n  - path_regex: secrets/\n    age: ${R1}\n  - age: ${R2}\n`,
    );
    writeFileSync(join(root, 'a', '.sops.yml'), 'creation_rules: []\n');
    const found = await findSopsConfig(join(root, 'a', 'b', 'x.yaml'));
    expect(found.path).toBe(join(root, '.sops.yaml'));
    expect(found.warning).toContain('ignoring');
    const other = join(root, 'other.yaml');
    writeFileSync(other, `creation_rules:\n  - age: ${R2}\n`);
    expect((await encryptConfigFor(join(root, 'secrets', 'x.yaml'), {}, {})).config.recipients).toEqual([R1]);
    expect(
      (await encryptConfigFor(join(root, 'secrets', 'x.yaml'), {}, { SOPS_CONFIG: other })).config.recipients,
    ).toEqual([R2]);
    expect((await encryptConfigFor(join(root, 'secrets', 'x.yaml'), { config: other }, {})).config.from).toBe(
      `${other} creation_rules[0]`,
    );
    await expect(
      encryptConfigFor(join(root, 'x.yaml'), { config: join(root, 'gone.yaml') }, {}),
    ).rejects.toThrow(expect.objectContaining({ code: 'SopsConfigInvalid' }));
  });

  it('loadSopsConfig refuses a field of the wrong type, a key twice and non-YAML, naming the field, never quoting', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-sops-config-'));
    const cases: [string, RegExp][] = [
      ['creation_rules:\n  - age: 3\n', /at creation_rules\.0\.age/],
      ['creation_rules:\n  - age: a\n    age: b\n', /is not YAML \(line 3\)/],
      ['creation_rules: [\n', /is not YAML/],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      writeFileSync(join(root, `c${i}.yaml`), text);
      await expect(loadSopsConfig(join(root, `c${i}.yaml`))).rejects.toThrow(message);
    }
  });
});
