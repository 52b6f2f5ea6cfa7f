import { sha256Hex, type ToolModelOutput } from '@toolgate/toolkit';
import type { OutputSummary } from '../audit-event.js';
import type { Redactor } from '../redaction/redactor.js';
import type { OutputMarks } from '../redaction/stored-forms.js';

/** The longest summary kept: outputs are stored as a bounded summary, never in full. */
export const OUTPUT_SUMMARY_BYTES = 1024;

function cut(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const buf = Buffer.from(text);
  if (buf.length <= maxBytes) return { text, truncated: false };
  // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
  let end = maxBytes;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return { text: buf.subarray(0, end).toString(), truncated: true };
}

function modelText(model: ToolModelOutput): string {
  if (model.type === 'text') return model.value;
  if (model.type === 'json') return JSON.stringify(model.value);
  return model.value.map((p) => (p.type === 'text' ? p.text : `[file ${p.mediaType}]`)).join('\n');
}

/**
 * The bounded, redacted record of an output: the model projection where the tool has one, else
 * the JSON cut to 1 KiB; always the full output's size and SHA-256, so the real output can be
 * proven later by whoever holds it.
 */
export function summarizeOutput(
  output: unknown,
  modelOutput: ToolModelOutput | undefined,
  redactor: Redactor,
  /** The tool's marked output fields and names option (ADR 036). */
  marks?: OutputMarks,
  /** The output already redacted with these marks (saves redacting a large output twice). */
  redactedOutput?: unknown,
): OutputSummary {
  const full = JSON.stringify(output ?? null);
  const bytes = Buffer.byteLength(full);
  const sha256 = sha256Hex(full);
  const names = marks?.redactNames ?? false;
  if (modelOutput) {
    const c = cut(redactor.redactText(modelText(modelOutput), names), OUTPUT_SUMMARY_BYTES);
    return { text: c.text, truncated: c.truncated, bytes, sha256 };
  }
  const redacted = JSON.stringify(
    redactedOutput !== undefined
      ? redactedOutput
      : redactor.redact(output ?? null, marks?.outputSensitivePaths ?? [], names),
  );
  const c = cut(redacted, OUTPUT_SUMMARY_BYTES);
  return { json: c.text, truncated: c.truncated, bytes, sha256 };
}
