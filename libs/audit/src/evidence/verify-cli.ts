import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkArchive, describeArchive, isArchiveDir, readArchiveDir } from '../retention/archive-check.js';
import { checkEvidence, type EvidenceReport } from './evidence-check.js';
import { unzipFiles } from './zip.js';

const USAGE =
  'usage: toolgate-verify <evidence.zip | directory | archive directory> [--public-key key.pem]... [--json]\n' +
  '  --public-key  an Ed25519 or SM2 public key (SPKI PEM) to trust instead of the bundle’s own; repeat it for a chain signed under both';

/** The files of a bundle: a ZIP's entries, or a directory's files (the ZIP unpacked). */
function readBundle(path: string): Map<string, Buffer> {
  if (statSync(path).isDirectory())
    return new Map(
      readdirSync(path)
        .filter((name) => statSync(join(path, name)).isFile())
        .map((name) => [name, readFileSync(join(path, name))]),
    );
  return unzipFiles(readFileSync(path));
}

/** The report as a person reads it. */
function describe(r: EvidenceReport): string {
  const lines = [
    r.ok ? 'VERIFIED' : r.exitCode === 3 ? 'INCOMPLETE' : 'FAILED',
    `tenant ${r.tenantId ?? '?'}: ${r.events} events, ${r.verified} vouched for by ${r.checkpoints} checkpoints`,
  ];
  if (r.firstTampered)
    lines.push(`first tampered event: seq ${r.firstTampered.seq} (id ${r.firstTampered.id})`);
  for (const p of r.problems) lines.push(`  problem: ${p.message}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `toolgate-verify`: checks an evidence bundle with no gateway, database or secret, and exits
 * with the report's code (0 verified, 1 tampered, 2 unusable, 3 incomplete; see EvidenceReport).
 */
export function main(argv: readonly string[]): number {
  const args = [...argv];
  const json = args.includes('--json');
  const keyPaths: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--public-key') keyPaths.push(args[++i] ?? '');
    else if (!args[i]!.startsWith('--')) paths.push(args[i]!);
  }
  if (paths.length !== 1 || keyPaths.some((p) => !p)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  // An archive store's directory (ADR 037): every tenant's archived ranges, checked end to end.
  if (isArchiveDir(paths[0]!)) {
    const archive = checkArchive(
      readArchiveDir(paths[0]!),
      // Archive manifests are checked with Ed25519 only (ADR 037): the first key given.
      keyPaths[0] ? readFileSync(keyPaths[0], 'utf8') : undefined,
    );
    process.stdout.write(json ? `${JSON.stringify(archive, null, 2)}\n` : describeArchive(archive));
    return archive.exitCode;
  }
  let report: EvidenceReport;
  try {
    report = checkEvidence(
      readBundle(paths[0]!),
      keyPaths.map((p) => readFileSync(p, 'utf8')),
    );
  } catch (err) {
    report = {
      ok: false,
      exitCode: 2,
      events: 0,
      verified: 0,
      checkpoints: 0,
      problems: [{ message: `cannot read ${paths[0]}: ${(err as Error).message}` }],
      notes: [],
    };
  }
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : describe(report));
  return report.exitCode;
}
