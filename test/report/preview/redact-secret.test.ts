import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { buildPreview } from '../../../src/report/preview/preview.js';
import { previewMarkdown } from '../../../src/report/preview/render-markdown.js';
import { previewText } from '../../../src/report/preview/render-text.js';
import { redactSecret } from '../../../src/core/redact.js';
import { configMap, result } from './helpers.js';

const secret = (data: Record<string, string>, stringData?: Record<string, string>): K8sObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db', namespace: 'app' },
  type: 'Opaque',
  data,
  ...(stringData ? { stringData } : {}),
});
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const REDACTED = /^<redacted hmac:[0-9a-f]{8}>$/;

describe('redactSecret', () => {
  it('replaces every data and stringData value, keeps keys and other fields', () => {
    const out = redactSecret(secret({ password: b64('hunter2') }, { user: 'admin' }));
    expect(Object.keys(out.data as object)).toEqual(['password']);
    expect((out.data as Record<string, string>).password).toMatch(REDACTED);
    expect((out.stringData as Record<string, string>).user).toMatch(REDACTED);
    expect(out.type).toBe('Opaque');
    expect(JSON.stringify(out)).not.toContain(b64('hunter2'));
    expect(JSON.stringify(out)).not.toContain('admin');
  });

  it('keeps a change visible: different values, different digests; same value, same digest', () => {
    const a = redactSecret(secret({ k: b64('one') })).data as Record<string, string>;
    const b = redactSecret(secret({ k: b64('two') })).data as Record<string, string>;
    const a2 = redactSecret(secret({ k: b64('one') })).data as Record<string, string>;
    expect(a.k).not.toBe(b.k);
    expect(a.k).toBe(a2.k);
  });

  it('digests the decoded value: moving it from stringData to data keeps the digest', () => {
    const asData = redactSecret(secret({ k: b64('same') })).data as Record<string, string>;
    const asString = redactSecret(secret({}, { k: 'same' })).stringData as Record<string, string>;
    expect(asData.k).toBe(asString.k);
  });

  it('salts with the object and key: the same value elsewhere has another digest', () => {
    const one = redactSecret(secret({ a: b64('v'), b: b64('v') })).data as Record<string, string>;
    expect(one.a).not.toBe(one.b);
  });

  it('leaves other kinds alone (including a Secret-named kind of another group)', () => {
    const cm = configMap('c', 'app', { password: 'visible' });
    expect(redactSecret(cm)).toBe(cm);
    const other: K8sObject = {
      apiVersion: 'example.com/v1',
      kind: 'Secret',
      metadata: { name: 'x' },
      data: { a: 'b' },
    };
    expect(redactSecret(other)).toBe(other);
  });

  it('no rendering of a preview carries a Secret value, yet the change shows', () => {
    const base = result('prod', [secret({ password: b64('old-pass') }, { token: 'old-token' })]);
    const head = result('prod', [secret({ password: b64('new-pass') }, { token: 'new-token' })]);
    const preview = buildPreview({ base: [base], head: [head] });
    const outputs = [previewMarkdown(preview), previewText(preview), JSON.stringify(preview)];
    for (const out of outputs) {
      for (const value of [
        'old-pass',
        'new-pass',
        b64('old-pass'),
        b64('new-pass'),
        'old-token',
        'new-token',
      ])
        expect(out).not.toContain(value);
    }
    expect(preview.overlays[0]!.changes[0]!.diff).toMatch(
      /- {2}password: <redacted hmac:[0-9a-f]{8}>\n\+ {2}password: <redacted hmac:[0-9a-f]{8}>/,
    );
  });
});
