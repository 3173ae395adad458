import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { buildPreview } from '../../../src/report/preview/preview.js';
import { previewMarkdown } from '../../../src/report/preview/render-markdown.js';
import { previewText } from '../../../src/report/preview/render-text.js';
import { encryptSops } from '../../../src/secrets/encrypt-sops.js';
import { sealSops } from '../../../src/secrets/seal-sops.js';
import { sealedText } from '../../../src/secrets/sealed-sops.js';
import { SOPS_ANNOTATIONS } from '../../../src/secrets/sops-annotations.js';
import { result } from './helpers.js';

const PLANTED = ['planted-old-htpasswd-1a', 'planted-new-htpasswd-2b', 'planted-user-3c'];

/** A SopsSecret as synth emits it: the file's sealed form in an annotation, no values. */
const sealed = (text: string): K8sObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'htpass-secret',
    namespace: 'openshift-config',
    annotations: {
      [SOPS_ANNOTATIONS.sopsFile]: 'secrets/htpasswd.sops.yaml',
      [SOPS_ANNOTATIONS.sopsCiphertext]: sealedText(sealSops(text, 'secrets/htpasswd.sops.yaml').sealed),
    },
  },
  type: 'Opaque',
});

describe('preview of a SopsSecret (no key)', () => {
  it('shows which keys changed and the recipients, never a value or the ciphertext', async () => {
    const recipient = await identityToRecipient(await generateX25519Identity());
    const base = await encryptSops({ htpasswd: PLANTED[0], user: PLANTED[2] }, { recipients: [recipient] });
    // As `sops edit` leaves it: the edited value re-encrypted, the other one's ciphertext kept, a key added.
    const other = await encryptSops({ htpasswd: PLANTED[1], extra: 'x' }, { recipients: [recipient] });
    const head = parseDocument(base);
    head.set('htpasswd', parseDocument(other).get('htpasswd'));
    head.set('extra', parseDocument(other).get('extra'));
    const preview = buildPreview({
      base: [result('prod', [sealed(base)])],
      head: [result('prod', [sealed(head.toString())])],
    });
    const text = previewText(preview);
    const outputs = [previewMarkdown(preview), text, JSON.stringify(preview)];
    for (const out of outputs) {
      for (const value of PLANTED) expect(out).not.toContain(value);
      expect(out).not.toContain('ENC[');
      expect(out).toContain(recipient);
    }
    const diff = preview.overlays[0]!.changes.find((c) => c.kind === 'Secret')!.diff;
    const changed = diff.split('\n').filter((l) => /^[-+] /.test(l));
    expect(changed.filter((l) => /^[-+]\s+htpasswd: <redacted hmac:/.test(l))).toHaveLength(2);
    expect(changed.filter((l) => /^\+\s+extra: <redacted hmac:/.test(l))).toHaveLength(1);
    expect(changed.some((l) => l.includes('user:'))).toBe(false);
  });
});
