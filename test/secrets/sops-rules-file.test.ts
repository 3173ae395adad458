import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileSopsRegex } from '../../src/secrets/sops-regex.js';
import { sopsRulesFile } from '../../src/secrets/sops-rules-file.js';

const R = 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p';

describe('sopsRulesFile', () => {
  it('one creation rule for the yaml and json files under the directory, metadata readable', () => {
    const rules = parse(sopsRulesFile({ recipients: [R, R], secretsDir: 'platform/secrets.d/' })) as {
      creation_rules: { path_regex: string; unencrypted_regex: string; age: string }[];
    };
    expect(rules.creation_rules).toHaveLength(1);
    const rule = rules.creation_rules[0]!;
    expect(rule.age).toBe(`${R},${R}`);
    const path = compileSopsRegex(rule.path_regex);
    expect(path.test('platform/secrets.d/db.sops.yaml')).toBe(true);
    expect(path.test('platform/secrets.d/x/y.json')).toBe(true);
    expect(path.test('platform/secretsXd/db.yaml')).toBe(false);
    expect(path.test('platform/secrets.d/db.txt')).toBe(false);
    const readable = compileSopsRegex(rule.unencrypted_regex);
    expect(['apiVersion', 'kind', 'metadata', 'type'].every((k) => readable.test(k))).toBe(true);
    expect(readable.test('stringData')).toBe(false);
  });

  it('refuses a directory that is not a plain relative path (it would be written into a regex and YAML)', () => {
    for (const dir of ['../x', '/abs', 'a/./b', "x'y", 'a b', '', 'a/../b'])
      expect(() => sopsRulesFile({ recipients: [R], secretsDir: dir }), dir).toThrow(
        expect.objectContaining({ code: 'InvalidFlag' }),
      );
  });
});
