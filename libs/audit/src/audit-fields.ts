import type { AuditActor, AuditEventType, OutputSummary } from './audit-event.js';

/** How a field is stored in its column(s) and read back (see field-codecs.ts). */
export type CodecName = 'text' | 'number' | 'bigint' | 'json' | 'date' | 'actor';

/**
 * Who sets a field: the event's writer (`draft`), the chain when it appends the event (`chain`),
 * or nobody outside the row's own bookkeeping (`row`: stored, never read back into an event).
 */
export type FieldPart = 'draft' | 'chain' | 'row';

/**
 * How the API view (docs/CONTRACT.md) shows a field: as it is (dates as ISO-8601 text), not at all,
 * or — a principal's id — as `{ id }` under the field's name without `Id`, left out when null.
 */
export type FieldView = 'value' | 'hidden' | 'ref';

/** What the code knows about one field of an audit event. */
export interface FieldSpec {
  readonly part: FieldPart;
  /** Its column(s) in `audit_events`; the entity's property of a column is the column in camelCase. */
  readonly columns: readonly string[];
  readonly codec: CodecName;
  /** The column may hold NULL; a writer that leaves the field out gets null (`draftEvent`). */
  readonly nullable: boolean;
  /**
   * Covered by the event's hash. Informative only: the canonical form in event-hash.ts lists its
   * fields explicitly (so no edit here can change stored hashes); its spec checks the two agree.
   */
  readonly hashed: boolean;
  readonly view?: FieldView;
  /** The database assigns it; never in an INSERT. */
  readonly generated?: true;
}

declare const valueType: unique symbol;

/** A field spec that carries the TypeScript type of its value (at the type level only). */
export interface Field<T> extends FieldSpec {
  readonly [valueType]?: T;
}

/** A field spec as the table states it: its part comes from the builder it is written with. */
type Spec = Omit<FieldSpec, 'part'>;

/**
 * Builders of a field whose value has type `T`, one per part. `nullable` must agree with `T`, so
 * the table and the event types derived from it cannot disagree about null.
 */
const partOf =
  <P extends FieldPart>(part: P) =>
  <T>() =>
  <const S extends Spec & { readonly nullable: null extends T ? true : false }>(spec: S) =>
    ({ part, ...spec }) as S & { readonly part: P } & Field<T>;
const draft = partOf('draft');
const chain = partOf('chain');
const row = partOf('row');

/**
 * Every field of an audit event, declared once, in the order the API view lists them. The event
 * types below, the INSERT columns and row values (event-columns.ts), the read mapping
 * (event-mapping.ts) and the CSV cells (audit-export.ts) all derive from it; the entity is checked
 * against it (audit-event.entity.spec.ts) and so is the hash (event-hash.spec.ts).
 */
export const AUDIT_FIELDS = {
  id: chain<string>()({ columns: ['id'], codec: 'bigint', nullable: false, hashed: false, generated: true }),
  tenantId: draft<string>()({ columns: ['tenant_id'], codec: 'text', nullable: false, hashed: true }),
  seq: chain<number>()({ columns: ['seq'], codec: 'number', nullable: false, hashed: true }),
  callId: draft<string | null>()({ columns: ['call_id'], codec: 'text', nullable: true, hashed: true }),
  event: draft<AuditEventType>()({ columns: ['event'], codec: 'text', nullable: false, hashed: true }),
  tool: draft<string | null>()({ columns: ['tool'], codec: 'text', nullable: true, hashed: true }),
  implementation: draft<string | null>()({
    columns: ['implementation'],
    codec: 'text',
    nullable: true,
    hashed: true,
  }),
  riskLevel: draft<string | null>()({ columns: ['risk_level'], codec: 'text', nullable: true, hashed: true }),
  agentType: draft<string | null>()({ columns: ['agent_type'], codec: 'text', nullable: true, hashed: true }),
  sessionId: draft<string | null>()({ columns: ['session_id'], codec: 'text', nullable: true, hashed: true }),
  actor: draft<AuditActor>()({
    columns: ['actor_type', 'actor_id'],
    codec: 'actor',
    nullable: false,
    hashed: true,
  }),
  initiatorId: draft<string | null>()({
    columns: ['initiator_id'],
    codec: 'text',
    nullable: true,
    hashed: true,
  }),
  approverId: draft<string | null>()({
    columns: ['approver_id'],
    codec: 'text',
    nullable: true,
    hashed: true,
    view: 'ref',
  }),
  bindingVersion: draft<number | null>()({
    columns: ['binding_version'],
    codec: 'number',
    nullable: true,
    hashed: true,
  }),
  definitionHash: draft<string | null>()({
    columns: ['definition_hash'],
    codec: 'text',
    nullable: true,
    hashed: true,
  }),
  input: draft<unknown>()({ columns: ['input'], codec: 'json', nullable: true, hashed: true }),
  outputSummary: draft<OutputSummary | null>()({
    columns: ['output_summary'],
    codec: 'json',
    nullable: true,
    hashed: true,
  }),
  status: draft<'ok' | 'error' | null>()({
    columns: ['status'],
    codec: 'text',
    nullable: true,
    hashed: true,
  }),
  code: draft<string | null>()({ columns: ['code'], codec: 'text', nullable: true, hashed: true }),
  durationMs: draft<number | null>()({
    columns: ['duration_ms'],
    codec: 'number',
    nullable: true,
    hashed: true,
  }),
  /** Admin event particulars (key id, binding diff), approval prompt and decision, error text. */
  details: draft<Record<string, unknown> | null>()({
    columns: ['details'],
    codec: 'json',
    nullable: true,
    hashed: true,
  }),
  occurredAt: draft<Date>()({ columns: ['occurred_at'], codec: 'date', nullable: false, hashed: true }),
  /** The process that ran the call; the reconciler closes calls of dead processes. */
  instanceId: draft<string | null>()({
    columns: ['instance_id'],
    codec: 'text',
    nullable: true,
    hashed: false,
    view: 'hidden',
  }),
  /** Makes retried writes idempotent (`<tenant>/<callId>:started`, ...); see audit-chain.repository.ts. */
  dedupeKey: row<string | null>()({
    columns: ['dedupe_key'],
    codec: 'text',
    nullable: true,
    hashed: false,
    view: 'hidden',
  }),
  prevHash: chain<string>()({ columns: ['prev_hash'], codec: 'text', nullable: false, hashed: false }),
  hash: chain<string>()({ columns: ['hash'], codec: 'text', nullable: false, hashed: false }),
};

type Fields = typeof AUDIT_FIELDS;
/** The names of the fields whose spec matches `Spec`. */
export type FieldsWhere<Spec> = { [K in keyof Fields]: Fields[K] extends Spec ? K : never }[keyof Fields];
/** The TypeScript type of a field's value. */
export type ValueOf<F> = F extends Field<infer T> ? T : never;
/** An object of the given fields' values. */
export type FieldValues<K extends keyof Fields> = { readonly [P in K]: ValueOf<Fields[P]> };

/** The name of a field an event's writer sets. */
export type DraftField = FieldsWhere<{ part: 'draft' }>;

/**
 * An event as its writer hands it over: everything but its place in the chain. Every field is
 * already redacted.
 */
export type AuditEventDraft = FieldValues<DraftField>;

/** A stored event: a draft with its id, place and hashes. */
export type AuditEventRecord = FieldValues<FieldsWhere<{ part: 'draft' | 'chain' }>>;

/** The draft fields a writer may leave out: the nullable ones, which then hold null. */
type DefaultedField = { [K in DraftField]: null extends AuditEventDraft[K] ? K : never }[DraftField];

/** What a writer states about an event: the required fields, and whichever others it knows. */
export type DraftFields = Omit<AuditEventDraft, DefaultedField> &
  Partial<Pick<AuditEventDraft, DefaultedField>>;

/** Entries of the table, in its order. */
export const AUDIT_FIELD_ENTRIES = Object.entries(AUDIT_FIELDS) as [keyof Fields, FieldSpec][];

/**
 * An object with the given keys, all null, to copy and fill in: V8 turns an object grown key by
 * key past 16 properties into a slow dictionary, a copy of this keeps the fast shape (and the
 * order of the keys) that every event of the trail is read through.
 */
export const blankOf = (names: readonly string[]): Readonly<Record<string, null>> =>
  Object.fromEntries(names.map((name) => [name, null]));

const DRAFT_FIELDS = AUDIT_FIELD_ENTRIES.filter(([, f]) => f.part === 'draft').map(([name]) => name);
const BLANK_DRAFT = blankOf(DRAFT_FIELDS);

/**
 * A complete draft from what its writer knows: every field left out (or undefined) is null. Only
 * the table's draft fields are copied, so extra properties of `fields` never reach the trail.
 * @example draftEvent({ tenantId: 'acme', event: 'key_created', actor, occurredAt: new Date() })
 */
export function draftEvent(fields: DraftFields): AuditEventDraft {
  const given = fields as Readonly<Record<string, unknown>>;
  const draft: Record<string, unknown> = { ...BLANK_DRAFT };
  for (const name of DRAFT_FIELDS) draft[name] = given[name] ?? null;
  return draft as AuditEventDraft;
}
