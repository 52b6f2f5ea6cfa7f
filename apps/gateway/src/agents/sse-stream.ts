import { openEventStream } from '../http/sse.js';
import type { FastifyReply } from 'fastify';
import type { ToolCallEvent } from '@toolgate/toolkit';

/**
 * A Server-Sent Events answer for streaming tools: `label` and `partial` events while the tool
 * runs, then one `result` event with the final envelope.
 *
 * The stream opens (hijacks the reply and writes the 200 head) on the first event or the final
 * answer, not before: until then nothing is written, so a call that fails before its first event
 * is still answered with the envelope and its real status, by the normal error path.
 */
export class SseStream {
  private state: 'idle' | 'open' | 'closed' = 'idle';

  constructor(private readonly reply: FastifyReply) {}

  /** True once the 200 head is written: from then on, every answer must be an event. */
  get started(): boolean {
    return this.state !== 'idle';
  }

  readonly onEvent = (event: ToolCallEvent): void => {
    this.send(
      event.type,
      event.type === 'partial' ? { data: event.data } : { phase: event.phase, text: event.text },
    );
  };

  send(event: string, payload: unknown): void {
    if (this.state === 'idle') this.open();
    if (this.state === 'closed') return;
    this.reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  }

  /** The final `result` event (with the call id when there is one), then the end of the stream. */
  end(callId: string | undefined, envelope: unknown): void {
    this.send('result', callId === undefined ? envelope : { callId, ...(envelope as object) });
    if (this.state === 'open') this.reply.raw.end();
    this.state = 'closed';
  }

  private open(): void {
    const raw = openEventStream(this.reply);
    this.state = raw.destroyed ? 'closed' : 'open';
    raw.on('close', () => (this.state = 'closed'));
  }
}
