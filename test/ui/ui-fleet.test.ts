import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetIntervalOf, uiFleet } from '../../src/cli/ui-fleet.js';
import { errorMessage, hasCode } from '../../src/core/errors.js';

const SECRET = 'sk-LEAK-0123456789';

/** A platform directory with groundwork.yaml and the given files. */
function platform(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-ui-fleet-'));
  writeFileSync(join(dir, 'groundwork.yaml'), 'name: p\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function failure(flags: Parameters<typeof uiFleet>[0]): Promise<unknown> {
  return uiFleet(flags).then(
    async (f) => {
      await f.stop();
      throw new Error('expected an error');
    },
    (e: unknown) => e,
  );
}

describe('groundwork ui --fleet-interval', () => {
  it('is 30 s by default and takes 5 s to 1 h', () => {
    expect(fleetIntervalOf(undefined)).toBe(30_000);
    expect(fleetIntervalOf('5s')).toBe(5_000);
    expect(fleetIntervalOf('1h')).toBe(3_600_000);
  });

  it.each(['4s', '2h', '0', 'soon', '', '-5s'])('refuses %j with InvalidFlag', (flag) => {
    let err: unknown;
    try {
      fleetIntervalOf(flag);
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'InvalidFlag')).toBe(true);
  });
});

describe('groundwork ui: the fleet is checked at start', () => {
  it('outside a platform repository, without --fleet, the page only says how to get one', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gw-ui-nofleet-'));
    const cwd = process.cwd();
    process.chdir(empty);
    try {
      const fleet = await uiFleet({});
      expect(fleet.reader.state().unavailable).toContain('No groundwork.yaml in');
      fleet.reader.wanted();
      expect(fleet.reader.state().view).toBeUndefined();
      await fleet.stop();
    } finally {
      process.chdir(cwd);
    }
  });

  it('in the working directory only, a broken groundwork.yaml or fleet.yaml turns the Fleet page off and is said, not fatal', async () => {
    for (const [files, message] of [
      [{ 'groundwork.yaml': `name: [${SECRET}\n` }, 'groundwork.yaml'],
      [{ 'fleet.yaml': `clusters:\n  - token: ${SECRET}\n` }, 'fleet.yaml'],
    ] as const) {
      const dir = platform(files);
      const cwd = process.cwd();
      process.chdir(dir);
      const warnings: string[] = [];
      try {
        const fleet = await uiFleet({}, { warn: (m) => warnings.push(m) });
        const unavailable = fleet.reader.state().unavailable ?? '';
        expect(unavailable).toContain(message);
        expect(unavailable).not.toContain(SECRET);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain('the Fleet page is off');
        expect(warnings[0]).not.toContain(SECRET);
      } finally {
        process.chdir(cwd);
      }
      // Asked for with --dir, the same file stops groundwork ui.
      expect(errorMessage(await failure({ dir }))).toContain(message);
    }
  });

  it('a --fleet without groundwork.yaml names groundwork.yaml', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gw-ui-nofleet-'));
    const err = await failure({ dir: empty, fleet: join(empty, 'fleet.yaml') });
    expect(hasCode(err, 'InvalidConfig')).toBe(true);
    expect(errorMessage(err)).toContain('groundwork.yaml');
  });

  it('a missing fleet file is InvalidFleetFile naming it, with a fix', async () => {
    const dir = platform();
    const err = await failure({ dir, fleet: join(dir, 'nope.yaml') });
    expect(hasCode(err, 'InvalidFleetFile')).toBe(true);
    expect(errorMessage(err)).toContain('nope.yaml');
    expect(errorMessage(err)).toContain('fix:');
  });

  it.each([
    ['an unknown key', `clusters:\n  - context: a\n    token: ${SECRET}\n`],
    ['a value of the wrong type', `clusters:\n  - context: [${SECRET}]\n`],
    ['broken YAML', `clusters:\n  - context: "${SECRET}\n  bad: [\n`],
    ['no list', `${SECRET}\n`],
  ])('an invalid fleet file (%s) names the file and never quotes its content', async (_, text) => {
    const dir = platform({ 'mine.yaml': text });
    const err = await failure({ dir, fleet: join(dir, 'mine.yaml') });
    expect(hasCode(err, 'InvalidFleetFile')).toBe(true);
    expect(errorMessage(err)).toContain('mine.yaml');
    expect(errorMessage(err)).not.toContain(SECRET);
  });

  it("the repository's fleet.yaml may not lead outside the checkout (a symbolic link)", async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'gw-ui-outside-')), 'fleet.yaml');
    writeFileSync(outside, `clusters:\n  - context: ${SECRET}\n`);
    const dir = platform();
    symlinkSync(outside, join(dir, 'fleet.yaml'));
    const err = await failure({ dir });
    expect(hasCode(err, 'PathOutsideCheckout')).toBe(true);
    expect(errorMessage(err)).not.toContain(outside);
  });

  it('a fleet file that is a FIFO or a device is refused before it is read', async () => {
    const dir = platform();
    execFileSync('mkfifo', [join(dir, 'fleet.yaml')]);
    expect(hasCode(await failure({ dir }), 'NotARegularFile')).toBe(true);
    expect(hasCode(await failure({ dir, fleet: '/dev/zero' }), 'NotARegularFile')).toBe(true);
  });

  it('--trusted-keys (for the Verified gate) that cannot be read stops it at start, naming the file', async () => {
    const dir = platform({ 'fleet.yaml': 'clusters:\n  - context: ctx-a\n', 'keys.asc': `${SECRET}\n` });
    for (const file of [join(dir, 'missing.asc'), join(dir, 'keys.asc')]) {
      const err = await failure({ dir, trustedKeys: [file] });
      expect(hasCode(err, 'TrustedKeysInvalid')).toBe(true);
      expect(errorMessage(err)).toContain('.asc');
      expect(errorMessage(err)).not.toContain(SECRET);
    }
  });

  it('a valid fleet file gives a poller that has read nothing yet', async () => {
    const dir = platform({ 'fleet.yaml': 'clusters:\n  - name: a\n    context: ctx-a\n' });
    const fleet = await uiFleet({ dir });
    expect(fleet.reader.state()).toEqual({ reading: false, intervalMs: 30_000 });
    await fleet.stop();
  });
});
