import { join } from 'node:path';

/** The quick start's own words, where they name what it runs. */
export interface QuickstartWords {
  intro: string;
  simulators: string;
  git: string;
}

/**
 * What the quick start says about the platform it serves and the simulators it runs, true both in
 * a clone of Groundwork and in an installed package: both come with Groundwork (`packageDir`, its
 * package root), not from the directory the user runs it in. Pure.
 */
export function quickstartWords(packageDir: string): QuickstartWords {
  const example = `the example platform shipped with Groundwork (${join(packageDir, 'platform')})`;
  return {
    intro: `Groundwork quick start: ${example}, reconciled by the agent from git.`,
    simulators:
      'OLM, the cluster-version operator and the machine-config operator are played by the simulators shipped with Groundwork (docs/simulators.md):',
    git: `${example}: groundwork.yaml, platform/, overlays/ and catalogs/ committed to a bare repo, served over git smart-HTTP.`,
  };
}
