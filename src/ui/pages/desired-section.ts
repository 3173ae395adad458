import type { FieldDiff } from '../../plan/field-diff.js';
import { shorten } from '../drift-rows.js';
import { html, type Html } from '../html.js';
import type { ObjectDetail } from '../snapshot.js';
import { table } from './layout.js';
import { yamlBlock } from './yaml-block.js';

/**
 * The object page's comparison with git: the diff (`desiredDiff`: each field git sets that the live
 * object lacks or holds otherwise, git's and the live value, who wrote the live one) and the desired
 * object as YAML. Values are JSON cut at `VALUE_LIMIT`, Secret values keyed hashes (redacted before
 * they got here). Without desired objects (`groundwork ui` outside the agent) it says where to see
 * them. Pure.
 */
export function desiredSection(d: ObjectDetail, opts: { appliedRevision?: string }): Html {
  const g = d.desired;
  if (!g)
    return html`<h2>Diff with git</h2>
      <p class="note">
        This dashboard reads the cluster only and holds no desired objects. The agent's own dashboard (<code
          >groundwork agent --dashboard</code
        >) shows the desired object and its diff here; from a checkout
        ${opts.appliedRevision ? html`at <code>${opts.appliedRevision}</code>` : 'of the applied revision'},
        <code>groundwork plan</code> and <code>groundwork drift</code> show them.
      </p>`;
  const revision = html`<code>${g.revision}</code>`;
  return html`<h2>Diff with git</h2>
    ${
      !g.object
        ? html`<p>Git at ${revision} does not declare it: it leaves git (the next apply prunes it).</p>`
        : !d.live
          ? html`<p>Missing: git at ${revision} declares it, the cluster does not hold it.</p>`
          : g.diff.length === 0
            ? html`<p class="none">The fields git sets match git at ${revision}.</p>`
            : html`<p>
                  ${g.diff.length} field(s) differ from git at ${revision} (the fields git sets, compared as
                  the plan compares them).
                </p>
                ${table(['Field', "Git's value", 'Live value', 'Live value written by'], g.diff.map(diffRow), { className: 'diff' })}`
    }
    <h2>Desired object</h2>
    ${g.object ? yamlBlock(g.object, { whole: html`<code>groundwork synth</code>` }) : html`<p>None at ${revision}.</p>`}`;
}

function diffRow(f: FieldDiff): Html {
  return html`<tr data-field="${f.path}">
    <td><code>${f.path}</code></td>
    <td><code>${f.op === 'remove' ? '(absent)' : (shorten(f.after) ?? '(absent)')}</code></td>
    <td><code>${f.op === 'add' ? '(absent)' : (shorten(f.before) ?? '(absent)')}</code></td>
    <td>${f.owners?.join(', ') || '—'}</td>
  </tr>`;
}
