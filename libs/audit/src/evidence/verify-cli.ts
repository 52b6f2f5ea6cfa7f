import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkArchive, describeArchive, isArchiveDir, readArchiveDir } from '../retention/archive-check.js';
import { checkEvidenceStream, type EvidenceReport } from './evidence-check.js';
import { EVIDENCE_FILES } from './evidence-format.js';
import { ZipFile } from './zip-file.js';

const USAGE =
  'usage: toolgate-verify <evidence.zip | directory | archive directory> [--public-key key.pem]... [--json]\n' +
  '  --public-key  an Ed25519 or SM2 public key (SPKI PEM) to trust instead of the bundle’s own; repeat it for a chain signed under both';

/**
 * A bundle as the check reads it (ADR 046): its small files whole, and `events.jsonl` as chunks
 * read from the ZIP entry or the file, so a bundle of any size is checked in bounded memory.
 */
async function openBundle(
  path: string,
): Promise<{ files: Map<string, Buffer>; events: AsyncIterable<Buffer> }> {
  const files = new Map<string, Buffer>();
  let events: AsyncIterable<Buffer> | undefined;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).filter((n) => statSync(join(path, n)).isFile()))
      if (name === EVIDENCE_FILES.events)
        events = createReadStream(join(path, name), { highWaterMark: 1 << 20 });
      else files.set(name, readFileSync(join(path, name)));
  } else {
    const zip = ZipFile.open(path);
    for (const name of zip.names())
      if (name === EVIDENCE_FILES.events) events = zip.chunks(name);
      else files.set(name, await zip.read(name));
  }
  if (!events) throw new Error(`${EVIDENCE_FILES.events} is missing: not a Toolgate evidence bundle`);
  return { files, events };
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
export async function main(argv: readonly string[]): Promise<number> {
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
    const bundle = await openBundle(paths[0]!);
    report = await checkEvidenceStream(
      bundle.files,
      bundle.events,
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
