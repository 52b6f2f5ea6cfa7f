import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

/** One finding of a linter, as a line a failing test prints: `rule (severity) at path: message`. */
export type LintProblem = string;

const require = createRequire(import.meta.url);

/**
 * Redocly CLI's `recommended` ruleset over an OpenAPI document: every error and warning. The CLI
 * itself, not its core library: the CLI bundles its own core, so this is the verdict a user of
 * `redocly lint` gets. Run in an empty folder, so no `redocly.yaml` of the repository changes the
 * rules, with telemetry and the update check off (tests reach no network).
 */
export async function redoclyProblems(document: object): Promise<LintProblem[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-redocly-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const args = [cli, 'lint', '--extends=recommended', '--format=json', 'openapi.json'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // The CLI exits 1 when it finds errors; its JSON report is on stdout either way.
    const stdout = await promisify(execFile)(process.execPath, args, { cwd: dir, env, maxBuffer: 64 << 20 })
      .then((r) => r.stdout)
      .catch((err: { stdout?: string }) => err.stdout ?? '');
    const report = JSON.parse(stdout) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    return report.problems.map(
      (p) => `${p.ruleId} (${p.severity}) at ${p.location[0]?.pointer ?? '#'}: ${p.message}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Spectral's `spectral:oas` ruleset (its recommended rules, as the CLI runs it): every finding. */
export async function spectralProblems(document: object): Promise<LintProblem[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Json, 'openapi.json'));
  const severities = ['error', 'warning', 'info', 'hint'];
  return results.map((r) => `${r.code} (${severities[r.severity]}) at ${r.path.join('.')}: ${r.message}`);
}
