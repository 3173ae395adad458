import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { groundwork, type CliResult } from '../harness/cli.js';
import { fileContents, type Json } from './arbitraries.js';

/**
 * The fuzz properties of `inputs.property.test.ts`, end to end through the real CLI on a sample of
 * generated inputs: the process exits 0 or 2 (never dies of a signal, a timeout or the memory cap),
 * and a failure is one `error:` line naming the file, with no stack trace. Node runs with a 256 MB
 * heap cap, so an input that makes memory run away fails here.
 */

const SAMPLES = Number(process.env.GROUNDWORK_FUZZ_CLI_SAMPLES ?? 6);
const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const CAPPED = { NODE_OPTIONS: '--max-old-space-size=256', GROUNDWORK_DEBUG: '' };

function expectClear(result: CliResult, file: RegExp): void {
  expect([0, 2], `exit ${result.code}; stderr: ${result.stderr.slice(0, 400)}`).toContain(result.code);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  if (result.code === 2) {
    expect(result.stderr).toMatch(/^error: /m);
    expect(result.stderr).toMatch(file);
  }
}

/** Samples of generated inputs, reproducible (fixed seed), with the valid document first. */
function samples(valid: readonly Json[], format: 'yaml' | 'json'): string[] {
  return fc.sample(fileContents(valid, format), { numRuns: SAMPLES, seed: 42 });
}

describe('the CLI on generated input files', () => {
  let repo: string;
  beforeAll(() => {
    // The example platform of this repository, copied: its code, overlays and catalogs.
    repo = mkdtempSync(join(tmpdir(), 'gw-fuzz-cli-'));
    for (const part of ['groundwork.yaml', 'platform', 'overlays', 'catalogs', 'package.json'])
      cpSync(new URL(part, ROOT), join(repo, part), { recursive: true });
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('synth with a generated groundwork.yaml exits 0 or 2 and names the file', async () => {
    const original = read('groundwork.yaml');
    for (const text of samples([parse(original) as Json], 'yaml')) {
      writeFileSync(join(repo, 'groundwork.yaml'), text);
      expectClear(
        await groundwork(['synth', '--dir', repo], { env: CAPPED, timeoutMs: 120_000 }),
        /groundwork\.yaml|overlay|platform|catalog/,
      );
    }
    writeFileSync(join(repo, 'groundwork.yaml'), original);
  }, 600_000);

  it('synth with a generated overlay exits 0 or 2 and names the overlay file', async () => {
    const original = read('overlays/dev.yaml');
    for (const text of samples([parse(original) as Json], 'yaml')) {
      writeFileSync(join(repo, 'overlays', 'dev.yaml'), text);
      expectClear(
        await groundwork(['synth', '--dir', repo, '--overlay', 'dev'], { env: CAPPED, timeoutMs: 120_000 }),
        /overlays\/dev\.yaml/,
      );
    }
    writeFileSync(join(repo, 'overlays', 'dev.yaml'), original);
  }, 600_000);

  it('catalog packages with a generated catalog file exits 0 or 2 and names the file', async () => {
    const valid = parseAllDocuments(read('test/fixtures/catalogs/kepler-operator.yaml')).map(
      (d) => d.toJS() as Json,
    );
    const file = join(repo, 'fuzzed-catalog.yaml');
    for (const text of samples(valid, 'yaml')) {
      writeFileSync(file, `${valid.map((v) => `---\n${JSON.stringify(v)}\n`).join('')}---\n${text}`);
      expectClear(
        await groundwork(['catalog', 'packages', '-f', file], { env: CAPPED, timeoutMs: 60_000 }),
        /fuzzed-catalog\.yaml/,
      );
    }
  }, 600_000);

  it('upgrade-path with a generated update graph exits 0 or 2 and names the file', async () => {
    const graph = JSON.parse(read('test/fixtures/update-graphs/stable-4.8.json')) as { nodes: Json[] };
    const valid: Json[] = [
      {
        nodes: graph.nodes.slice(0, 4),
        edges: [
          [0, 1],
          [1, 3],
        ],
      },
    ];
    const file = join(repo, 'fuzzed-graph.json');
    for (const text of samples(valid, 'json')) {
      writeFileSync(file, text);
      const result = await groundwork(['upgrade-path', '--graph', file, '--from', '4.7.0', '--to', '4.7.9'], {
        env: CAPPED,
        timeoutMs: 60_000,
      });
      // Exit 2 is also "no path" here, which names the versions rather than the file.
      expectClear(result, /fuzzed-graph\.json|4\.7\./);
    }
  }, 600_000);
});
