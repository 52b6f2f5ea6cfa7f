import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GENESIS_HASH } from '../audit-event.js';
import { checkpointPayload } from '../chain/checkpoint-signer.js';
import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { checkStretch, linkProblems, type EvidenceProblem } from '../evidence/evidence-check.js';
import type { EvidenceEvent, EvidenceKey } from '../evidence/evidence-format.js';
import { ARCHIVE_KIND, ARCHIVE_PREFIX, KEYS_PREFIX, type ArchiveManifest } from './archive-format.js';

/** The verdict on one tenant's archived ranges. */
export interface ArchivedTenantReport {
  readonly tenantId: string;
  readonly ranges: number;
  readonly events: number;
  /** Events a signed public digest vouches for. */
  readonly verified: number;
  readonly firstSeq: number | null;
  readonly lastSeq: number | null;
  readonly problems: readonly EvidenceProblem[];
}

/** The verdict on an archive: exit codes as for evidence bundles (0 verified, 1 tampered, 2 unusable, 3 incomplete). */
export interface ArchiveReport {
  readonly ok: boolean;
  readonly exitCode: 0 | 1 | 2 | 3;
  readonly tenants: readonly ArchivedTenantReport[];
  readonly notes: readonly string[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Whether a directory is an archive store (it holds archived ranges of the chain). */
export function isArchiveDir(path: string): boolean {
  try {
    return statSync(path).isDirectory() && statSync(join(path, ARCHIVE_PREFIX)).isDirectory();
  } catch {
    return false;
  }
}

/** Every file under a directory, by its `/`-separated path relative to it (as the store's keys). */
export function readArchiveDir(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.tmp')) out.set(relative(root, path).split(sep).join('/'), readFileSync(path));
    }
  };
  walk(root);
  return out;
}

/**
 * Checks an archive (ADR 037) with public material only, as `toolgate-verify` does an evidence
 * bundle (ADR 030): per tenant, each range's manifest signature, its file's SHA-256 and seq range,
 * the covering checkpoint's signature and head; that the ranges follow one another from the start
 * of the chain without a gap (each range's first event links to the previous range's last); the
 * links between all events; and every checkpoint stretch's public digest, event by event — so an
 * event edited, removed or added in any archived day is named by its seq.
 */
export function checkArchive(files: ReadonlyMap<string, Buffer>, trustedKeyPem?: string): ArchiveReport {
  const notes: string[] = [];
  const keys = new Map<string, KeyObject>();
  try {
    for (const [name, body] of files)
      if (name.startsWith(KEYS_PREFIX) && name.endsWith('.json')) {
        const k = JSON.parse(body.toString('utf8')) as EvidenceKey;
        keys.set(k.keyId, createPublicKey(trustedKeyPem ?? k.publicKeyPem));
      }
  } catch (err) {
    return {
      ok: false,
      exitCode: 2,
      tenants: [],
      notes: [`unreadable public key: ${(err as Error).message}`],
    };
  }
  notes.push(
    trustedKeyPem
      ? 'checked against the key given'
      : `checked against the archive's own keys (${[...keys.keys()].join(', ') || 'none'}): compare them with GET /v1/audit/public-keys`,
  );
  const tenants = new Map<string, string[]>();
  for (const name of [...files.keys()].sort()) {
    const m = new RegExp(`^${ARCHIVE_PREFIX}([^/]+)/[^/]+\\.manifest\\.json$`).exec(name);
    if (m) tenants.set(m[1]!, [...(tenants.get(m[1]!) ?? []), name]);
  }
  if (!tenants.size)
    return { ok: false, exitCode: 2, tenants: [], notes: [...notes, 'no archived ranges found'] };
  const reports = [...tenants].map(([encoded, manifests]) =>
    checkTenant(decodeURIComponent(encoded), manifests, files, keys, trustedKeyPem),
  );
  const tampered = reports.some((r) => r.problems.length);
  const incomplete = reports.some((r) => r.verified < r.events);
  if (incomplete && !tampered)
    notes.push('some events are covered by no checkpoint with a public digest (signed before v1.8)');
  const exitCode = tampered ? 1 : incomplete ? 3 : 0;
  return { ok: exitCode === 0, exitCode, tenants: reports, notes };
}

function checkTenant(
  tenantId: string,
  manifestKeys: readonly string[],
  files: ReadonlyMap<string, Buffer>,
  keys: ReadonlyMap<string, KeyObject>,
  trustedKeyPem?: string,
): ArchivedTenantReport {
  const problems: EvidenceProblem[] = [];
  const events: EvidenceEvent[] = [];
  const checkpoints = new Map<string, StoredCheckpoint>();
  const keyOf = (keyId: string) => (trustedKeyPem ? [...keys.values()][0] : keys.get(keyId));
  let previous: ArchiveManifest | undefined;
  for (const key of manifestKeys) {
    const body = files.get(key)!;
    let m: ArchiveManifest;
    try {
      m = JSON.parse(body.toString('utf8')) as ArchiveManifest;
      if (m.kind !== ARCHIVE_KIND) throw new Error(`not a ${ARCHIVE_KIND} manifest`);
    } catch (err) {
      problems.push({ message: `${key} is unreadable: ${(err as Error).message}` });
      continue;
    }
    const sig = files.get(key.replace(/\.manifest\.json$/, '.manifest.sig'));
    const signer = keyOf(m.keyId);
    if (!signer || !sig || !verifies(signer, body, sig.toString('utf8')))
      problems.push({ message: `${key} is not signed by key ${m.keyId}` });
    if (m.tenantId !== tenantId) problems.push({ message: `${key} names tenant ${m.tenantId}` });
    const cpKey = keyOf(m.checkpoint.keyId);
    if (!cpKey || !verifies(cpKey, checkpointPayload(m.checkpoint), m.checkpoint.signature))
      problems.push({
        message: `the checkpoint covering ${key} (seq ${m.checkpoint.seq}) has an invalid signature`,
      });
    if (m.checkpoint.seq !== m.lastSeq || m.checkpoint.headHash !== m.lastHash)
      problems.push({ message: `${key} ends at seq ${m.lastSeq}, not at the head its checkpoint signed` });
    for (const c of m.checkpoints) checkpoints.set(`${c.seq}/${c.signature}`, c);
    // The ranges meet end to start, from the beginning of the chain.
    const expectedFirst = previous ? previous.lastSeq + 1 : 1;
    const expectedPrev = previous ? previous.lastHash : GENESIS_HASH;
    if (m.firstSeq !== expectedFirst || m.firstPrevHash !== expectedPrev)
      problems.push({
        message: previous
          ? `the range ${key} does not follow the one before it (seq ${previous.lastSeq} → ${m.firstSeq}): a range is missing or replaced`
          : `the archive starts at seq ${m.firstSeq}, not at the start of the chain: ranges are missing`,
      });
    previous = m;
    const gz = files.get(m.file);
    if (!gz) {
      problems.push({ message: `${m.file}, named by ${key}, is missing` });
      continue;
    }
    if (gz.length !== m.bytes || sha256(gz) !== m.sha256) {
      problems.push({ message: `${m.file} does not match the SHA-256 in its manifest` });
    }
    let lines: EvidenceEvent[];
    try {
      lines = gunzipSync(gz)
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as EvidenceEvent);
    } catch (err) {
      problems.push({ message: `${m.file} is unreadable: ${(err as Error).message}` });
      continue;
    }
    if (lines.length !== m.events || lines[0]?.seq !== m.firstSeq || lines.at(-1)?.seq !== m.lastSeq)
      problems.push({
        message: `${m.file} holds seq ${lines[0]?.seq ?? '?'}–${lines.at(-1)?.seq ?? '?'} (${lines.length} events), its manifest ${m.firstSeq}–${m.lastSeq} (${m.events})`,
      });
    events.push(...lines);
  }
  events.sort((a, b) => a.seq - b.seq);
  problems.push(...linkProblems(events));
  if (events[0] && events[0].seq === 1 && events[0].prevHash !== GENESIS_HASH)
    problems.push({ message: 'the first event does not start the chain', seq: 1, id: events[0].id });
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  let verified = 0;
  for (const cp of checkpoints.values()) {
    const key = keyOf(cp.keyId);
    if (!key || !verifies(key, checkpointPayload(cp), cp.signature)) {
      problems.push({
        message: `the checkpoint at seq ${cp.seq} (signed at ${cp.signedAt}) has an invalid signature`,
      });
      continue;
    }
    const head = bySeq.get(cp.seq);
    if (head && head.hash !== cp.headHash)
      problems.push({
        message: `event seq ${head.seq} (id ${head.id}) is not the event the checkpoint at seq ${cp.seq} signed`,
        seq: head.seq,
        id: head.id,
      });
    if (cp.publicDigest === undefined) continue;
    const stretch = checkStretch(cp, bySeq);
    problems.push(...stretch.problems);
    if (!stretch.problems.length) verified += cp.seq - cp.fromSeq!;
  }
  return {
    tenantId,
    ranges: manifestKeys.length,
    events: events.length,
    verified: Math.min(verified, events.length),
    firstSeq: events[0]?.seq ?? null,
    lastSeq: events.at(-1)?.seq ?? null,
    problems,
  };
}

function verifies(key: KeyObject, payload: Buffer, signatureBase64: string): boolean {
  try {
    return verify(null, payload, key, Buffer.from(signatureBase64.trim(), 'base64'));
  } catch {
    return false;
  }
}

/** The report as a person reads it. */
export function describeArchive(r: ArchiveReport): string {
  const lines = [r.ok ? 'VERIFIED' : r.exitCode === 3 ? 'INCOMPLETE' : 'FAILED'];
  for (const t of r.tenants) {
    lines.push(
      `tenant ${t.tenantId}: ${t.ranges} archived ranges, seq ${t.firstSeq ?? '-'}–${t.lastSeq ?? '-'}, ${t.events} events, ${t.verified} vouched for by signed checkpoints`,
    );
    const first = t.problems.filter((p) => p.seq !== undefined).sort((a, b) => a.seq! - b.seq!)[0];
    if (first) lines.push(`  first tampered event: seq ${first.seq} (id ${first.id})`);
    for (const p of t.problems) lines.push(`  problem: ${p.message}`);
  }
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return `${lines.join('\n')}\n`;
}
