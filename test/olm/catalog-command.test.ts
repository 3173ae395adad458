import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { fixturePath } from '../harness/fixtures.js';

describe('groundwork catalog path', () => {
  it("uses the package's default channel when --channel is not given, and says which", async () => {
    const file = fixturePath('catalogs/kepler-operator.yaml');
    const r = await groundwork([
      'catalog',
      'path',
      'kepler-operator',
      '-f',
      file,
      '--to',
      'kepler-operator.v0.24.0',
      '-o',
      'json',
    ]);
    expect(r.stderr).toBe('channel: alpha (the default channel of kepler-operator)\n');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { request: { channel: string } }).request.channel).toBe('alpha');
    const explicit = await groundwork([
      'catalog',
      'path',
      'kepler-operator',
      '-f',
      file,
      '--channel',
      'alpha',
      '--to',
      'kepler-operator.v0.24.0',
    ]);
    expect(explicit.stderr).toBe('');
    expect(explicit.code).toBe(0);
  });

  it('names the packages when the package is unknown', async () => {
    const r = await groundwork([
      'catalog',
      'path',
      'nope',
      '-f',
      fixturePath('catalogs/kepler-operator.yaml'),
      '--to',
      'x',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope: not in the catalog (fix: use one of: kepler-operator)');
  });
});
