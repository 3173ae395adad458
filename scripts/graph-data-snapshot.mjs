// `node scripts/graph-data-snapshot.mjs <cincinnati-graph-data checkout> > data/update-graphs/graph-data-snapshot.json`:
// the dated snapshot of OpenShift's public update-graph data that Groundwork ships
// (src/cluster-version/release-snapshot.ts reads it). From a git checkout of
// openshift/cincinnati-graph-data it takes the commit and its date, every `channels/*.yaml`
// (name and versions: every release ever published in the channel, since graph-data never removes
// one) and every `blocked-edges/*.yaml` (to, from, fixedIn, and for a conditional update its risk:
// name, url, message and the types of its matchingRules; the PromQL of a rule, which only the
// cluster-version operator can evaluate, is left out). Risks are listed once by name (the same
// name carries the same url, message and rule types in every file; the script refuses otherwise).
// The graph-data holds no edges: those are computed by the update service from release images.
// Output is sorted, so the same checkout gives the same bytes.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/graph-data-snapshot.mjs <cincinnati-graph-data checkout>');
const git = (...args) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
const [commit, date] = git('log', '-1', '--format=%H %cI').split(' ');
const yamlFiles = (sub) =>
  readdirSync(join(dir, sub))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ file: f, data: parse(readFileSync(join(dir, sub, f), 'utf8')) }));

const channels = {};
for (const { file, data } of yamlFiles('channels')) {
  if (typeof data?.name !== 'string' || `${data.name}.yaml` !== file) throw new Error(`${file}: name`);
  channels[data.name] = (data.versions ?? []).map(String);
}
const risks = {};
const blockedEdges = [];
for (const { file, data } of yamlFiles('blocked-edges')) {
  if (typeof data?.to !== 'string' || typeof data.from !== 'string') throw new Error(`${file}: to/from`);
  if (data.name) {
    const risk = {
      url: data.url ?? '',
      message: data.message ?? '',
      matchingRules: (data.matchingRules ?? []).map((r) => ({ type: r.type })),
    };
    const seen = risks[data.name];
    if (seen && JSON.stringify(seen) !== JSON.stringify(risk))
      throw new Error(`${file}: risk ${data.name} differs from an earlier file's`);
    risks[data.name] = risk;
  }
  blockedEdges.push({
    file,
    to: data.to,
    from: data.from,
    ...(data.name ? { risk: data.name } : {}),
    ...(data.fixedIn ? { fixedIn: String(data.fixedIn) } : {}),
  });
}
const sortedRisks = Object.fromEntries(Object.entries(risks).sort(([a], [b]) => a.localeCompare(b)));
const snapshot = {
  kind: 'GraphDataSnapshot',
  source: 'https://github.com/openshift/cincinnati-graph-data',
  commit,
  date,
  schemaVersion: readFileSync(join(dir, 'version'), 'utf8').trim(),
  license: 'Apache-2.0',
  notice:
    'Derived from openshift/cincinnati-graph-data (Apache License 2.0) at the commit above by scripts/graph-data-snapshot.mjs: channel files as name and versions, blocked-edge files without the PromQL of their matchingRules, risks listed once. Not the update graph: it holds no edges.',
  channels,
  risks: sortedRisks,
  blockedEdges,
};
// One channel, risk or blocked edge a line: readable, and a new snapshot diffs line by line.
const lines = (obj) => Object.entries(obj).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
const out = ['{'];
const entries = Object.entries(snapshot);
entries.forEach(([key, value], i) => {
  const comma = i < entries.length - 1 ? ',' : '';
  if (key === 'channels' || key === 'risks')
    out.push(` ${JSON.stringify(key)}: {`, lines(value).join(',\n'), ` }${comma}`);
  else if (key === 'blockedEdges')
    out.push(
      ` ${JSON.stringify(key)}: [`,
      value.map((e) => `  ${JSON.stringify(e)}`).join(',\n'),
      ` ]${comma}`,
    );
  else out.push(` ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
});
out.push('}');
process.stdout.write(`${out.join('\n')}\n`);
