// The renderer process: its job (a `RenderJob` as JSON) on stdin, its answer as one frame on fd 3
// (`encodeFrame`, with the job's nonce), its log on stdout and stderr. Started by the trusted side
// under the isolation `isolation.ts` chose (`launchRenderer`), as a bundle (`rendererBundle`).
import fs from 'node:fs';
import { encodeFrame, encodeJsonFrame, failureOutput, RESULT_FD, type SynthChildOutput } from './protocol.js';
import { renderJob } from './render-in-renderer.js';
import { RENDER_JOB_MAX_BYTES, renderJobSchema, type RenderJob } from './render-job.js';

/** The job on stdin, or undefined (said on stderr) when it is not one. */
function readJob(): RenderJob | undefined {
  const input = fs.readFileSync(0);
  if (input.length > RENDER_JOB_MAX_BYTES) {
    process.stderr.write('groundwork renderer: its job is larger than 1 MiB\n');
    return undefined;
  }
  let parsed;
  try {
    parsed = renderJobSchema.safeParse(JSON.parse(input.toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (parsed?.success) return parsed.data;
  process.stderr.write(
    `groundwork renderer: its job is not a render job${parsed ? `: ${parsed.error.message}` : ''}\n`,
  );
  return undefined;
}

async function main(): Promise<number> {
  const job = readJob();
  if (!job) return 2;
  const output: SynthChildOutput | Buffer = await renderJob(job).then(
    (answer) => ('json' in answer ? answer.json : { ok: true as const, results: answer.results }),
    (err: unknown) => failureOutput(err),
  );
  // The platform child's own JSON, forwarded as it came, or this renderer's output.
  const frame = Buffer.isBuffer(output)
    ? encodeJsonFrame(job.nonce, output)
    : Buffer.from(encodeFrame(job.nonce, output));
  for (let done = 0; done < frame.length;) done += fs.writeSync(RESULT_FD, frame, done);
  return 0;
}

process.exitCode = await main();
