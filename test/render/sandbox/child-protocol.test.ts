import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../../src/core/errors.js';
import { settleOutcome, type ChildOutcome } from '../../../src/render/sandbox/child-outcome.js';
import { decodeFrame, encodeFrame, type SynthChildOutput } from '../../../src/render/sandbox/protocol.js';
import { setHash, toManifest } from '../../../src/render/synth/manifest.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';

const NONCE = 'a'.repeat(32);
const configMap = (name: string, data: Record<string, string> = { key: 'value' }) =>
  toManifest(
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data },
    'platform/cm',
  );
const manifests = [configMap('one'), configMap('two')];
const GOOD: SynthChildOutput = {
  ok: true,
  results: [{ platform: 'p', overlay: 'dev', manifests, hash: setHash(manifests), warnings: [] }],
};

/** The good output as JSON, edited by `edit` (which gets a deep copy). */
function edited(edit: (o: { results: Record<string, unknown>[] } & Record<string, unknown>) => void): string {
  const copy = JSON.parse(JSON.stringify(GOOD)) as { results: Record<string, unknown>[] } & Record<
    string,
    unknown
  >;
  edit(copy);
  return JSON.stringify(copy);
}
const manifest0 = (o: { results: Record<string, unknown>[] }) =>
  (o.results[0]!.manifests as Record<string, unknown>[])[0]!;
const frame = (text: string) => Buffer.from(`${NONCE}\n${text}`);

describe('decodeFrame: the synth child result is parsed, never cast', () => {
  it('reads a frame of this run', () => {
    const decoded = decodeFrame(Buffer.from(encodeFrame(NONCE, GOOD)), NONCE);
    expect(decoded).toEqual({ ok: true, output: GOOD });
  });

  it('keeps every field of an object, `__proto__` keys included', () => {
    const odd = toManifest(
      JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"odd"},"data":{"__proto__":"x"}}'),
      'platform/odd',
    );
    const out: SynthChildOutput = { ok: true, results: [{ ...GOOD.results[0]!, manifests: [odd] }] };
    const decoded = decodeFrame(Buffer.from(encodeFrame(NONCE, out)), NONCE);
    expect(
      decoded.ok && decoded.output.ok && Object.keys(decoded.output.results[0]!.manifests[0]!.object.data!),
    ).toEqual(['__proto__']);
  });

  it.each([
    [
      'no nonce (platform code wrote a result of its own)',
      Buffer.from(JSON.stringify(GOOD)),
      /not a frame of this run|other than a frame/,
    ],
    ['another nonce', Buffer.from(encodeFrame('b'.repeat(32), GOOD)), /other than a frame of this run/],
    [
      'bytes before the frame',
      Buffer.from(`junk${encodeFrame(NONCE, GOOD)}`),
      /other than a frame of this run/,
    ],
    ['bytes after the JSON', frame(`${JSON.stringify(GOOD)}{"ok":true}`), /not one JSON document/],
    [
      'two frames',
      frame(`${JSON.stringify(GOOD)}\n${NONCE}\n${JSON.stringify(GOOD)}`),
      /not one JSON document/,
    ],
    [
      'a number for a name',
      frame(
        edited((o) => (manifest0(o).object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 7 } })),
      ),
      /results\[0\]\.manifests\[0\]\.object\.metadata\.name: /,
    ],
    [
      'a name that would be a path (`..`)',
      frame(
        edited(
          (o) =>
            (manifest0(o).object = {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: '..', namespace: 'default' },
            }),
        ),
      ),
      /manifests\[0\]\.object\.metadata\.name: ConfigMap name "\.\." is not a DNS-1123 subdomain/,
    ],
    [
      'a namespace with a slash',
      frame(
        edited(
          (o) =>
            (manifest0(o).object = {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'a', namespace: '../x' },
            }),
        ),
      ),
      /manifests\[0\]\.object\.metadata\.namespace: namespace "\.\.\/x" is not a DNS-1123 label/,
    ],
    [
      'a kind that is no kind',
      frame(
        edited(
          (o) => (manifest0(o).object = { apiVersion: 'v1', kind: 'Config Map', metadata: { name: 'a' } }),
        ),
      ),
      /manifests\[0\]\.object\.kind: kind "Config Map" is not a kind/,
    ],
    [
      'a message past 64 KiB',
      frame(JSON.stringify({ ok: false, error: { code: 'BuildFailed', message: 'x'.repeat(65 * 1024) } })),
      /error\.message/,
    ],
    [
      'millions of tiny values (refused before parsing)',
      frame(`[${Array(8_400_000).fill('0').join(',')}]`),
      /more than \d+ values: refused before parsing/,
    ],
    [
      'objects and arrays past their bound (refused before parsing)',
      frame(`[${Array(1_100_000).fill('{}').join(',')}]`),
      /more than \d+ objects and arrays: refused before parsing/,
    ],
    [
      'nesting past 100 levels',
      frame(`${'['.repeat(101)}${']'.repeat(101)}`),
      /more than 100 levels of nesting/,
    ],
    [
      'a field of its own',
      frame(edited((o) => (o.results[0]!.extra = true))),
      /results\[0\]: Unrecognized key: "extra"/,
    ],
    [
      'an unknown stage',
      frame(edited((o) => (manifest0(o).stage = 'early'))),
      /manifests\[0\]\.stage: unknown stage/,
    ],
    [
      'a hash that is no sha256',
      frame(edited((o) => (manifest0(o).hash = 'md5:00'))),
      /manifests\[0\]\.hash/,
    ],
    ['an error with a numeric code', frame('{"ok":false,"error":{"code":42,"message":"m"}}'), /error\.code/],
    [
      'an error with a code Groundwork does not know',
      frame('{"ok":false,"error":{"code":"Pwned","message":"m"}}'),
      /error\.code/,
    ],
    [
      "an id that is not its object's",
      frame(edited((o) => (manifest0(o).id = 'kube-system_coredns_apps_Deployment'))),
      /manifests\[0\]\.id: not the id of its object/,
    ],
    [
      "a stage that is not its object's",
      frame(edited((o) => (manifest0(o).stage = 'crds'))),
      /manifests\[0\]\.stage: not the stage of its object/,
    ],
    [
      'an object twice',
      frame(edited((o) => (o.results[0]!.manifests = [manifest0(o), manifest0(o)]))),
      /manifests\[1\]\.id: occurs twice/,
    ],
  ])('refuses %s', (_what, bytes, problem) => {
    const decoded = decodeFrame(bytes, NONCE);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.problem).toMatch(problem);
  });

  it.each([
    [
      'an overlay not asked for',
      { overlays: ['prod'] },
      /results\[0\]\.overlay: not an overlay that was asked for/,
    ],
    ['an overlay asked for and not answered', { overlays: ['dev', 'prod'] }, /no result for 1 overlay/],
    ['another platform', { platform: 'q' }, /results\[0\]\.platform: not the platform of groundwork.yaml/],
  ])('refuses %s', (_what, expect_, problem) => {
    const decoded = decodeFrame(Buffer.from(encodeFrame(NONCE, GOOD)), NONCE, expect_);
    expect(!decoded.ok && decoded.problem).toMatch(problem);
  });

  it('refuses an overlay answered twice, and names no overlay it refuses', () => {
    const twice = edited((o) => (o.results = [o.results[0]!, { ...o.results[0]!, overlay: '../x' }]));
    const decoded = decodeFrame(frame(twice), NONCE, { overlays: ['dev'] });
    expect(!decoded.ok && decoded.problem).toMatch(
      /results\[1\]\.overlay: not an overlay that was asked for/,
    );
    expect(!decoded.ok && decoded.problem).not.toContain('../x');
    const same = edited((o) => (o.results = [o.results[0]!, o.results[0]!]));
    expect(decodeFrame(frame(same), NONCE, { overlays: ['dev'] })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/results\[1\]\.overlay: answered twice/),
    });
  });

  it('reads the overlays and platform it was told to expect', () => {
    const decoded = decodeFrame(Buffer.from(encodeFrame(NONCE, GOOD)), NONCE, {
      overlays: ['dev'],
      platform: 'p',
    });
    expect(decoded).toEqual({ ok: true, output: GOOD });
  });

  it('never quotes the bytes it refuses', () => {
    const decoded = decodeFrame(frame('{"ok":false,"error":{"code":"SECRET-VALUE","message":"m"}}'), NONCE);
    expect(!decoded.ok && decoded.problem).not.toContain('SECRET-VALUE');
  });
});

const outcome = (over: Partial<ChildOutcome>): ChildOutcome => ({
  dir: '/checkout',
  exit: { code: 0, signal: null },
  frame: Buffer.alloc(0),
  nonce: NONCE,
  log: '',
  limits: { timeoutMs: 60_000, heapMb: 480, rssMb: 640, resultBytes: 64 * 1024 * 1024 },
  ...over,
});

/** The code and message `settleOutcome` throws. */
function thrown(o: ChildOutcome): { code: string; message: string } {
  try {
    settleOutcome(o);
  } catch (err) {
    if (err instanceof GroundworkError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('settled');
}

describe('settleOutcome: how a synth child ended', () => {
  it.each([
    ['stopped at its timeout', { stopped: 'timeout' as const }, 'SynthTimeout', /within 60s/],
    [
      'stopped past the result cap',
      { stopped: 'result-cap' as const },
      'SynthOutputTooLarge',
      /result is larger than 64 MiB/,
    ],
    [
      'stopped past the log cap',
      { stopped: 'log-cap' as const },
      'SynthOutputTooLarge',
      /more than 16 MiB to stdout and stderr/,
    ],
    [
      'stopped past its memory budget',
      { stopped: 'memory' as const },
      'SynthOutOfMemory',
      /over its 640 MiB memory budget/,
    ],
    [
      'no result, heap exhausted',
      { exit: { code: null, signal: 'SIGABRT' as const }, log: 'FATAL ERROR: JavaScript heap out of memory' },
      'SynthOutOfMemory',
      /\(SIGABRT\) without a result: over the 480 MiB heap cap/,
    ],
    ['no result, exit 0', {}, 'SynthCrashed', /\(exit 0\) without a result/],
    [
      'a forged frame',
      { frame: Buffer.from(JSON.stringify(GOOD)) },
      'SynthCrashed',
      /\(exit 0\), and its result channel holds something other/,
    ],
  ])('%s', (_what, over, code, message) => {
    const got = thrown(outcome(over));
    expect(got.code).toBe(code);
    expect(got.message).toMatch(message);
  });

  it("returns the results of a frame of this run, and throws the child's own errors", () => {
    expect(settleOutcome(outcome({ frame: Buffer.from(encodeFrame(NONCE, GOOD)) }))).toEqual(GOOD.results);
    const failed: SynthChildOutput = {
      ok: false,
      error: { code: 'BuildFailed', message: 'build() threw at /built/x.ts' },
    };
    const here = (t: string) => t.replace('/built', '/checkout');
    expect(thrown(outcome({ frame: Buffer.from(encodeFrame(NONCE, failed)), here }))).toEqual({
      code: 'BuildFailed',
      message: 'build() threw at /checkout/x.ts',
    });
    const invalid: SynthChildOutput = {
      ok: false,
      error: {
        code: 'ValidationFailed',
        message: 'm',
        issues: [{ path: 'p', field: '', message: 'bad', severity: 'error' }],
      },
    };
    expect(() => settleOutcome(outcome({ frame: Buffer.from(encodeFrame(NONCE, invalid)) }))).toThrow(
      SynthValidationError,
    );
  });
});
