import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/cluster/api-error.js';
import { KUBERNETES_REASONS } from '../../src/core/error-codes.js';
import { ERROR_CODES, GroundworkError, hasCode, isErrorCode } from '../../src/core/errors.js';

const DOC = fileURLToPath(new URL('../../docs/errors.md', import.meta.url));

/** The rows of every `| code | meaning | fix |` table in docs/errors.md. */
function documentedRows(): { code: string; meaning: string; fix: string }[] {
  return readFileSync(DOC, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const m = /^\| `([A-Za-z]+)` \|(.*)\|(.*)\|\s*$/.exec(line);
      return m ? [{ code: m[1]!, meaning: m[2]!.trim(), fix: m[3]!.trim() }] : [];
    });
}

describe('error codes: one closed list, documented in docs/errors.md', () => {
  it('lists each code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('documents exactly the codes of ERROR_CODES, once each, with a meaning and a fix', () => {
    const rows = documentedRows();
    const documented = rows.map((r) => r.code);
    expect(new Set(documented).size, 'a code documented twice').toBe(documented.length);
    expect([...documented].sort()).toEqual([...ERROR_CODES].sort());
    expect(rows.filter((r) => !r.meaning || !r.fix).map((r) => r.code)).toEqual([]);
  });

  it('isErrorCode accepts the listed codes only', () => {
    expect(isErrorCode('UnknownKind')).toBe(true);
    expect(isErrorCode('NotFound')).toBe(true);
    for (const other of [
      'unknownkind',
      'ENOENT',
      'NotFoundError',
      '',
      'toString',
      '__proto__',
      42,
      undefined,
    ])
      expect(isErrorCode(other), String(other)).toBe(false);
  });

  it('hasCode matches GroundworkErrors only, never a Node or git error with the same code', () => {
    const ours = new GroundworkError({ code: 'UnknownKind', message: 'x' });
    expect(hasCode(ours, 'UnknownKind')).toBe(true);
    expect(hasCode(ours, 'UnknownPackage')).toBe(false);
    expect(hasCode(Object.assign(new Error('x'), { code: 'UnknownKind' }), 'UnknownKind')).toBe(false);
    expect(hasCode({ code: 'UnknownKind' }, 'UnknownKind')).toBe(false);
    expect(hasCode(undefined, 'UnknownKind')).toBe(false);
  });

  it("an ApiError's code is the apiserver's reason when standard, else ApiRequestFailed (reason kept)", () => {
    const api = (status: number, reason?: string) =>
      new ApiError({ status, method: 'GET', path: '/x', body: reason ? { reason } : undefined, text: '' });
    for (const reason of KUBERNETES_REASONS) expect(api(400, reason).code).toBe(reason);
    expect(api(404).code).toBe('NotFound');
    const webhook = api(400, 'PolicyViolation');
    expect([webhook.code, webhook.reason]).toEqual(['ApiRequestFailed', 'PolicyViolation']);
    const teapot = api(418);
    expect([teapot.code, teapot.reason]).toEqual(['ApiRequestFailed', 'Http418']);
  });
});
