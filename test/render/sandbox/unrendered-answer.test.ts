import { describe, expect, it } from 'vitest';
import { encodeFrame, type SynthChildOutput } from '../../../src/render/sandbox/protocol.js';
import { unrenderedAnswer } from '../../../src/render/sandbox/unrendered-answer.js';
import { setHash, toManifest } from '../../../src/render/synth/manifest.js';

const NONCE = 'a'.repeat(32);
const CAP = 64 * 1024 * 1024;
const manifests = [
  toManifest({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', namespace: 'a' } }, 'p/one'),
];
const result = { platform: 'p', overlay: 'dev', manifests, hash: setHash(manifests), warnings: [] };
const frame = (output: unknown, nonce = NONCE) => Buffer.from(encodeFrame(nonce, output as SynthChildOutput));

describe('unrenderedAnswer: what the renderer forwards unparsed', () => {
  it('forwards the JSON of a result with nothing to render, byte for byte as the child sent it', () => {
    const bytes = frame({ ok: true, results: [result, { ...result, overlay: 'prod' }] });
    const json = unrenderedAnswer(bytes, NONCE, CAP);
    expect(json?.toString('utf8')).toBe(bytes.subarray(NONCE.length + 1).toString('utf8'));
  });

  it.each([
    ['a result that recorded a chart (renders)', frame({ ok: true, results: [{ ...result, renders: [] }] })],
    ['a failure', frame({ ok: false, error: { code: 'BuildFailed', message: 'x' } })],
    ['no results array', frame({ ok: true, results: {} })],
    ['a result that is not an object', frame({ ok: true, results: [null] })],
    ["another run's nonce", frame({ ok: true, results: [result] }, 'b'.repeat(32))],
    ['bytes before the frame', Buffer.concat([Buffer.from('junk'), frame({ ok: true, results: [result] })])],
    ['no JSON after the nonce', Buffer.from(`${NONCE}\n{"ok":true,`)],
    ['a frame shorter than the nonce', Buffer.from('a')],
  ])('leaves %s to be read as before (undefined)', (_what, bytes) => {
    expect(unrenderedAnswer(bytes, NONCE, CAP)).toBeUndefined();
  });

  it('parses nothing past the frame bounds: a frame of many tiny values is left to decodeFrame', () => {
    const tiny = Buffer.from(`${NONCE}\n{"ok":true,"results":[],"x":[${'0,'.repeat(2000)}0]}`);
    expect(unrenderedAnswer(tiny, NONCE, 1024)).toBeUndefined();
    expect(unrenderedAnswer(tiny, NONCE, CAP)).toBeDefined();
  });
});
