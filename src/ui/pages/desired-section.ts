import type { FieldDiff } from '../../plan/field-diff.js';
import { shorten } from '../drift-rows.js';
import { html, type Html } from '../html.js';
import type { ObjectDetail } from '../snapshot.js';
import { table } from './layout.js';
import { yamlBlock } from './yaml-block.js';

const NO_DESIRED = 'This dashboard reads the cluster only: it holds no desired objects, so no diff with git.';
const DIFF_COLUMNS = ['Field', "Git's value", 'Live value', 'Live value written by'];

/**
 * The object page's comparison with git: the diff (`desiredDiff`: each field git sets that the live
 * object lacks or holds otherwise, git's and the live value, who wrote the live one). Values are
 * JSON cut at `VALUE_LIMIT`, Secret values keyed hashes (redacted before they got here). Without
 * desired objects (`groundwork ui` outside the agent) it says where to see them. Pure.
 */
export function diffSection(d: ObjectDetail, opts: { appliedRevision?: string }): Html {
  const g = d.desired;
  const at = opts.appliedRevision ? html`at <code>${opts.appliedRevision}</code>` : 'of the applied revision';
  if (!g) {
    const agent = html`<code>groundwork agent --dashboard</code>`;
    const cli = html`<code>groundwork plan</code> and <code>groundwork drift</code>`;
    return html`<h2>Diff with git</h2>
      <p class="note">
        ${NO_DESIRED} The agent's own dashboard (${agent}) shows both; from a checkout ${at}, ${cli} show
        them.
      </p>`;
  }
  const revision = html`<code>${g.revision}</code>`;
  let body: Html;
  if (!g.object)
    body = html`<p>Git at ${revision} does not declare it: it leaves git (the next apply prunes it).</p>`;
  else if (!d.live)
    body = html`<p>Missing: git at ${revision} declares it, the cluster does not hold it.</p>`;
  else if (g.diff.length === 0)
    body = html`<p class="none">The fields git sets match git at ${revision}.</p>`;
  else
    body = html`<p>
        ${g.diff.length} field(s) differ from git at ${revision} (the fields git sets, compared as the plan
        compares them).
      </p>
      ${table(DIFF_COLUMNS, g.diff.map(diffRow), { className: 'diff' })}`;
  return html`<h2>Diff with git</h2>
    ${body}`;
}

/** The desired object as YAML (cut by `yamlBlock`); nothing without desired objects. Pure. */
export function desiredObjectSection(d: ObjectDetail): Html {
  const g = d.desired;
  if (!g) return html``;
  const yaml = g.object
    ? yamlBlock(g.object, { whole: html`<code>groundwork synth</code>` })
    : html`<p>None at <code>${g.revision}</code>.</p>`;
  return html`<h2>Desired object</h2>
    ${yaml}`;
}

function diffRow(f: FieldDiff): Html {
  const git = f.op === 'remove' ? '(absent)' : (shorten(f.after) ?? '(absent)');
  const live = f.op === 'add' ? '(absent)' : (shorten(f.before) ?? '(absent)');
  return html`<tr data-field="${f.path}">
    <td><code>${f.path}</code></td>
    <td><code>${git}</code></td>
    <td><code>${live}</code></td>
    <td>${f.owners?.join(', ') || '—'}</td>
  </tr>`;
}
