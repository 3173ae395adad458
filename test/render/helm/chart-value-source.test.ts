import { describe, expect, it } from 'vitest';
import { chartValueSource, type ValueLayer } from '../../../src/render/helm/chart-value-source.js';

const code: ValueLayer = { kind: 'values', values: { replicaCount: '3', image: { tag: null } } };
const file0: ValueLayer = {
  kind: 'valuesFile',
  index: 0,
  file: 'values/a.yaml',
  values: { image: { repository: 'r' } },
};
const file1: ValueLayer = {
  kind: 'valuesFile',
  index: 1,
  file: 'values/b.yaml',
  values: { replicaCount: 2, hosts: ['a'] },
};
const chart: ValueLayer = {
  kind: 'chart',
  file: 'values.yaml',
  prefix: [],
  values: { replicaCount: 1, global: { region: 'eu' } },
};
const sub: ValueLayer = {
  kind: 'chart',
  file: 'charts/sub/values.yaml',
  prefix: ['sub'],
  values: { port: 80 },
};
const layers = [code, file1, file0, chart, sub];

describe('chartValueSource', () => {
  it('the construct values win over values files (the later first) over the chart defaults', () => {
    expect(chartValueSource(['replicaCount'], layers)).toMatchObject({
      set: true,
      layer: code,
      type: 'a string',
    });
    expect(chartValueSource(['replicaCount'], [file1, file0, chart])).toMatchObject({
      layer: file1,
      type: 'a number',
    });
    expect(chartValueSource(['image', 'repository'], layers)).toMatchObject({ layer: file0 });
    expect(chartValueSource(['hosts', '0'], layers)).toMatchObject({ layer: file1, type: 'a string' });
  });

  it("a subchart's value from its own values.yaml, and its globals from the top chart's", () => {
    expect(chartValueSource(['sub', 'port'], layers)).toMatchObject({ layer: sub, type: 'a number' });
    expect(chartValueSource(['sub', 'global', 'region'], layers)).toMatchObject({
      layer: chart,
      type: 'a string',
    });
  });

  it('null is a value given (helm drops the key), and a missing value names its deepest set parent', () => {
    expect(chartValueSource(['image', 'tag'], layers)).toMatchObject({
      set: true,
      layer: code,
      type: 'null',
    });
    expect(chartValueSource(['image', 'digest', 'sha'], layers)).toEqual({
      set: false,
      deepest: { path: ['image'], layer: code, type: 'a map' },
    });
    expect(chartValueSource(['db', 'host'], layers)).toEqual({ set: false });
  });
});
