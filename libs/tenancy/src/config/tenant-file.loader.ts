import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { NO_CEILINGS, type TenantFileCeilings } from './tenant-file.ceilings.js';
import { tenantFileSchemaOf, type TenantFile } from './tenant-file.schema.js';
import { sectionProblems, type TenantSections } from './tenant-sections.js';

/** A tenant file that could not be read; the message names the file, the path and the line. */
export class TenantConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid tenant configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'TenantConfigError';
  }
}

/** A parsed tenant file and where it came from. */
export interface LoadedTenantFile {
  readonly file: string;
  readonly tenant: TenantFile;
  /** The file's text as read (its hash says whether it changed since its last import). */
  readonly text: string;
  /** The line of a path in the file, for later messages (bindings checked against the registry). */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, k) => (typeof k === 'number' ? `${out}[${k}]` : out ? `${out}.${String(k)}` : String(k)),
    '',
  );
}

function lineLookup(doc: Document, counter: LineCounter) {
  return (path: readonly (string | number)[]): number | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line;
    }
    return undefined;
  };
}

/** The schema of each set of sections, built once (a file is parsed at boot and on every change). */
const schemas = new WeakMap<TenantSections, ReturnType<typeof tenantFileSchemaOf>>();

function schemaOf(sections: TenantSections) {
  let schema = schemas.get(sections);
  if (!schema) schemas.set(sections, (schema = tenantFileSchemaOf(sections)));
  return schema;
}

/**
 * Parses and validates one tenant file's text: its own fields, the `sections` the platform
 * composed it with and their checks, within the platform's `ceilings`.
 */
export function parseTenantFile(
  file: string,
  text: string,
  sections: TenantSections,
  ceilings: TenantFileCeilings = NO_CEILINGS,
): LoadedTenantFile {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  if (doc.errors.length) {
    throw new TenantConfigError(doc.errors.map((e) => `${file}: ${e.message.split('\n')[0]}`));
  }
  const lineOf = lineLookup(doc, counter);
  const raw: unknown = doc.toJS();
  const parsed = schemaOf(sections).safeParse(raw);
  if (!parsed.success) {
    throw new TenantConfigError(
      parsed.error.issues.map((issue) => {
        const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
        const line = lineOf(path);
        return `${file}: ${formatPath(path) || '(root)'}: ${issue.message}${line ? ` (line ${line})` : ''}`;
      }),
    );
  }
  if (!isMap(doc.contents) && !isSeq(doc.contents))
    throw new TenantConfigError([`${file}: expected a mapping`]);
  const above = sectionProblems(parsed.data, sections, ceilings);
  if (above.length) {
    throw new TenantConfigError(
      above.map((p) => {
        const line = lineOf(p.path);
        return `${file}: ${formatPath(p.path)}: ${p.message}${line ? ` (line ${line})` : ''}`;
      }),
    );
  }
  return { file, tenant: parsed.data, text, lineOf };
}

/**
 * Reads every `*.yaml`/`*.yml` in `dir`, sorted by name. All problems of all files are reported
 * together; a tenant id that does not match its file name, or appears twice, is a problem too.
 */
export function loadTenantFiles(
  dir: string,
  sections: TenantSections,
  ceilings: TenantFileCeilings = NO_CEILINGS,
): LoadedTenantFile[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.ya?ml$/.test(n))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const problems: string[] = [];
  const loaded: LoadedTenantFile[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    try {
      const t = parseTenantFile(file, readFileSync(file, 'utf8'), sections, ceilings);
      const stem = name.replace(/\.ya?ml$/, '');
      if (t.tenant.id !== stem)
        problems.push(`${file}: id "${t.tenant.id}" must match the file name "${stem}"`);
      if (seen.has(t.tenant.id))
        problems.push(`${file}: tenant "${t.tenant.id}" is also defined in ${seen.get(t.tenant.id)}`);
      seen.set(t.tenant.id, file);
      loaded.push(t);
    } catch (err) {
      if (err instanceof TenantConfigError) problems.push(...err.problems);
      else throw err;
    }
  }
  if (problems.length) throw new TenantConfigError(problems);
  return loaded;
}
