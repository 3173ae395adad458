import { describe, expect, it } from 'vitest';
import type { DriftItem } from '../../src/plan/drift.js';
import { DriftReport } from '../../src/report/drift-report.js';

const item = (expected: unknown, actual: unknown): DriftItem => ({
  id: 'v1__ConfigMap__ns__app',
  ref: { group: '', kind: 'ConfigMap', namespace: 'ns', name: 'app' },
  type: 'modified',
  fields: [{ path: '/data/nginx.conf', expected, actual, manager: 'kubectl-edit' }],
});

describe('DriftReport renderings', () => {
  it('keeps a multi-line value on one table row', () => {
    const report = new DriftReport('p', 'dev', [item('worker 1;\nlisten 80;\n', 'worker 2;\nlisten 80;\n')]);
    const lines = report.toString().split('\n');
    // Summary, header, one row, what apply does about it.
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain('"worker 1;\\nlisten 80;\\n"');
    expect(lines[2]).toContain('kubectl-edit');
  });

  it('says that apply restores kubectl edits and that fields of other managers need --force-conflicts', () => {
    const hpa = {
      ...item('3', '5'),
      fields: [{ path: '/spec/replicas', expected: 3, actual: 5, manager: 'hpa-controller' }],
    };
    expect(new DriftReport('p', 'dev', [item('a', 'b')]).toString().split('\n').at(-1)).toBe(
      'groundwork apply restores these fields (out-of-band edits of fields git owns).',
    );
    expect(new DriftReport('p', 'dev', [item('a', 'b'), hpa]).toMarkdown().split('\n').at(-1)).toBe(
      'groundwork apply restores fields changed with kubectl; 1 field(s) owned by other managers (hpa-controller) need groundwork apply --force-conflicts.',
    );
  });

  it('keeps a value with pipes and line breaks in one Markdown table cell', () => {
    const md = new DriftReport('p', 'dev', [item('a | b\nc', 'x')]).toMarkdown();
    const row = md.split('\n').filter((l) => l.startsWith('| modified'));
    expect(row).toHaveLength(1);
    // 7 unescaped pipes make 6 cells.
    expect(row[0]!.replace(/\\\|/g, '').split('|')).toHaveLength(8);
  });

  it('uses the width it is given: long object names in full on a wide terminal, cut to fit a narrow one', () => {
    const name = 'a-rather-long-configmap-name-that-goes-on-and-on-for-seventy-characters';
    const long: DriftItem = {
      ...item('1', '2'),
      ref: { group: '', kind: 'ConfigMap', namespace: 'ns', name },
    };
    const wide = new DriftReport('p', 'dev', [long]).toTable({ width: 200 }).split('\n');
    expect(wide[2]).toContain(`ConfigMap/ns/${name}`);
    const narrow = new DriftReport('p', 'dev', [long]).toTable({ width: 80 }).split('\n');
    expect(narrow.slice(1, 3).every((l) => l.length <= 80)).toBe(true);
    expect(narrow[2]).toContain('…');
  });
});
