import { readConfinedFile } from '../core/confined-file.js';
import { InvalidUpdateGraphError } from './errors.js';
import { graphFromCincinnati, type UpdateGraph } from './graph.js';

/**
 * The largest update-graph file read: 25 times the largest real graph in this repository
 * (`test/fixtures/update-graphs/stable-4.8.json`, 156 KiB) and several times a whole channel's
 * response today. A graph is parsed in the agent itself, not in the sandbox: an edge-dense graph
 * at this bound costs about 4.5 s and 310 MB to parse (at 12 MB: 16 s and 740 MB).
 */
export const GRAPH_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Reads and parses a Cincinnati update graph that a repository names (`graphs:` in
 * groundwork.yaml): `path` is relative to the checkout `root`, its real path must be inside it
 * (`PathOutsideCheckout`), and it is refused past `GRAPH_MAX_BYTES` (`FileTooLarge`) before being
 * read. A missing file is `InvalidUpdateGraph`. Errors name `path`, never the file's content.
 */
export async function loadGraphFile(opts: { root: string; path: string }): Promise<UpdateGraph> {
  const text = await readConfinedFile({ ...opts, maxBytes: GRAPH_MAX_BYTES, what: 'update graph' }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') throw new InvalidUpdateGraphError(opts.path, ['file not found'], missingFix);
      throw err;
    },
  );
  return graphFromCincinnati(text, opts.path);
}

const missingFix = 'list under graphs: in groundwork.yaml the update-graph files committed to the repository';
