import { ApiObject, App } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { join } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import type { K8sObject } from '../../core/object.js';
import { loadProjectConfig, type ProjectConfig } from '../../project/config.js';
import type { PlatformDefinition } from './define-platform.js';
import { loadDefinition, notPermitted } from './load-definition.js';
import { compareManifests, setHash, toManifest, type Manifest } from './manifest.js';
import {
  describeOrigins,
  listOverlays,
  loadOverlay,
  originsInMessage,
  type ValueOrigin,
} from './overlays.js';
import { Platform } from './platform.js';
import { runPostSynthChecks, type PostSynthCheck } from './post-synth-checks.js';
import { codeSite } from './code-site.js';
import { constructInProgress, withDeepStacks } from './construct-in-progress.js';
import { recordedRenders } from '../recorded/recorded.js';
import type { RenderRequest } from '../recorded/render-request.js';
import type { RenderedChart } from '../helm/rendered-chart.js';
import { recordedStack, SynthValidationError, Validation, type ValidationIssue } from './validation.js';

interface SynthOptions {
  /** Repository root holding groundwork.yaml. */
  dir: string;
  /** @default groundwork.yaml's defaultOverlay */
  overlay?: string;
  /** Loads the platform module (the synth child's bundle has it built in). @default import of `entry` */
  load?: () => Promise<unknown>;
  /** Whole-platform checks of the domains, run after the constructs (`POST_SYNTH_CHECKS`). @default none */
  checks?: readonly PostSynthCheck[];
}

/** The desired state of one overlay, ready for plan. */
export interface SynthResult {
  platform: string;
  overlay: string;
  /** In apply order (stage, kind, namespace, name). */
  manifests: Manifest[];
  /** Hash of the whole set (see ManifestIndex). */
  hash: string;
  warnings: ValidationIssue[];
  /**
   * Charts and Kustomize directories the platform recorded (`HelmChart`, `Kustomization`), not yet
   * in `manifests`: the synth parent renders them outside the sandbox (`renderRecorded`) and
   * returns results without this field.
   */
  renders?: RenderRequest[];
  /** The Helm charts rendered into `manifests` (set by `renderRecorded`), for previews. */
  charts?: RenderedChart[];
}

/**
 * Synthesizes one overlay in this process: loads groundwork.yaml, the platform module and the
 * overlay values, builds the constructs, finalizes them and validates everything. Touches no
 * cluster and no network. Throws SynthValidationError with *every* problem (construct path, field
 * and fix) when anything is invalid, and returns nothing partial.
 */
export async function synthesize(opts: SynthOptions): Promise<SynthResult> {
  const config = await loadProjectConfig(opts.dir);
  const overlay = opts.overlay ?? config.defaultOverlay;
  const definition = await loadDefinition(join(opts.dir, config.entry), {
    root: opts.dir,
    ...(opts.load ? { load: opts.load } : {}),
  });
  let origins: ValueOrigin[] = [];
  try {
    const loaded = await loadOverlay(join(opts.dir, config.overlays), overlay, definition.values, opts.dir);
    origins = loaded.origins;
    return await synthesizeDefinition(definition, loaded.values, {
      config,
      overlay,
      dir: opts.dir,
      ...(opts.checks ? { checks: opts.checks } : {}),
    });
  } catch (err) {
    if (!(err instanceof SynthValidationError)) throw err;
    throw new SynthValidationError(err.issues.map((i) => locateIssue(i, overlay, origins, opts.dir)));
  }
}

/**
 * Names the overlay of an issue, the platform code's line that recorded it (when a construct
 * recorded it while the platform built it), and for a construct's issue the overlay values its
 * message quotes (a pin, a version), with the file and line that set them.
 */
function locateIssue(
  issue: ValidationIssue,
  overlay: string,
  origins: readonly ValueOrigin[],
  dir: string,
): ValidationIssue {
  const from = issue.from ?? describeOrigins(originsInMessage(issue.message, origins));
  const at = issue.at ?? codeSite(recordedStack(issue), dir);
  return { ...issue, overlay: issue.overlay ?? overlay, ...(from ? { from } : {}), ...(at ? { at } : {}) };
}

/**
 * Builds and collects one overlay from an already loaded definition and validated values: the
 * part of `synthesize` that does not read files (used by benchmarks and by `synthesize` itself).
 */
export async function synthesizeDefinition(
  definition: PlatformDefinition,
  values: unknown,
  ctx: { config: ProjectConfig; overlay: string; dir: string; checks?: readonly PostSynthCheck[] },
): Promise<SynthResult> {
  const app = new App();
  try {
    withDeepStacks(() => definition.build(app, values, { overlay: ctx.overlay, platform: ctx.config.name }));
  } catch (err) {
    const construct = constructInProgress(app, err);
    const denied = notPermitted(err, ctx.dir, construct);
    if (denied) throw denied;
    throw new GroundworkError({
      code: 'BuildFailed',
      // The platform's line that threw, when the stack reaches the platform's code.
      subject: codeSite(err instanceof Error ? err.stack : undefined, ctx.dir) ?? ctx.config.entry,
      message: `build() threw${construct ? ` in construct ${construct}` : ''}: ${err instanceof Error ? err.message : String(err)}`,
      fix: 'constructs report bad props as validation issues; this is an error in the platform code itself',
      cause: err,
    });
  }
  return collect(app, { ...ctx, checks: ctx.checks ?? [] });
}

/** Synthesizes every overlay of the repository, in name order. */
export async function synthesizeAll(
  dir: string,
  opts: Pick<SynthOptions, 'load' | 'checks'> = {},
): Promise<SynthResult[]> {
  const config = await loadProjectConfig(dir);
  const results: SynthResult[] = [];
  // Every overlay is tried, so one run reports every overlay's errors, each naming its overlay.
  const issues: ValidationIssue[] = [];
  for (const overlay of await listOverlays(join(dir, config.overlays))) {
    try {
      results.push(await synthesize({ ...opts, dir, overlay }));
    } catch (err) {
      if (!(err instanceof SynthValidationError)) throw err;
      issues.push(...err.issues);
    }
  }
  if (issues.length > 0) throw new SynthValidationError(issues);
  return results;
}

async function collect(
  app: App,
  {
    config,
    overlay,
    dir,
    checks,
  }: { config: ProjectConfig; overlay: string; dir: string; checks: readonly PostSynthCheck[] },
): Promise<SynthResult> {
  const all = app.node.findAll();
  for (const c of all) if (Platform.isPlatform(c)) c.finalize();
  const issues: ValidationIssue[] = [...Validation.all(app)];
  // The tree once finalized (finalizers add objects; validations and checks add none), walked once.
  const settled = app.node.findAll();
  for (const c of settled) {
    for (const message of c.node.validate())
      issues.push({ path: c.node.path, field: '', message, severity: 'error' });
  }
  const manifests: Manifest[] = [];
  const seen = new Map<string, string>();
  for (const obj of settled.filter((c: IConstruct): c is ApiObject => ApiObject.isApiObject(c))) {
    const m = toManifest(obj.toJson() as K8sObject, obj.node.path);
    const other = seen.get(m.id);
    if (other) {
      issues.push({
        path: obj.node.path,
        field: '',
        message: `${m.object.kind} ${m.object.metadata.namespace ? `${m.object.metadata.namespace}/` : ''}${m.object.metadata.name} is also emitted by ${other}`,
        fix: 'each object must be declared once; remove or rename one of them',
        severity: 'error',
      });
      continue;
    }
    seen.set(m.id, obj.node.path);
    manifests.push(m);
  }
  issues.push(...(await runPostSynthChecks({ app, config, manifests, dir }, checks)));
  if (issues.some((i) => i.severity === 'error')) throw new SynthValidationError(issues);
  manifests.sort(compareManifests);
  const renders = recordedRenders(app, settled);
  return {
    platform: config.name,
    overlay,
    manifests,
    hash: setHash(manifests),
    warnings: issues.filter((i) => i.severity === 'warning'),
    ...(renders.length > 0 ? { renders } : {}),
  };
}
