import type { FastifyReply } from 'fastify';
import type { ToolCallEvent } from '@toolgate/toolkit';

/**
 * A Server-Sent Events answer for streaming tools: `label` and `partial` events while the tool
 * runs, then one `result` event with the final envelope.
 */
export class SseStream {
  private open = true;

  constructor(private readonly reply: FastifyReply) {
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.on('close', () => (this.open = false));
  }

  readonly onEvent = (event: ToolCallEvent): void => {
    this.send(
      event.type,
      event.type === 'partial' ? { data: event.data } : { phase: event.phase, text: event.text },
    );
  };

  send(event: string, payload: unknown): void {
    if (!this.open) return;
    this.reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  }

  end(callId: string, envelope: unknown): void {
    this.send('result', { callId, ...(envelope as object) });
    if (this.open) this.reply.raw.end();
  }
}
