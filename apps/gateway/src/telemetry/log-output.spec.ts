import { PassThrough } from 'node:stream';
import type { LoggerService } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { logDestination, QuietBootLogger } from './log-output.js';

describe('log output', () => {
  it('writes one readable line per event in the pretty format', () => {
    const out = new PassThrough();
    const stream = logDestination('pretty', out)!;
    stream.write(
      `${JSON.stringify({ level: 40, time: Date.now(), pid: 1, hostname: 'h', context: 'TenantFiles', msg: 'not applied' })}\n`,
    );
    const line = String(out.read());
    expect(line).toMatch(/WARN.*TenantFiles: not applied/);
    expect(line).not.toContain('{');
    expect(logDestination('json')).toBeUndefined();
  });

  it("moves Nest's start-up chatter to debug and passes everything else on", () => {
    const inner = { log: vi.fn(), debug: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies LoggerService;
    const logger = new QuietBootLogger(inner);
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    logger.log('imported tenant acme', 'TenantFiles');
    logger.warn('careful', 'TenantFiles');
    expect(inner.debug.mock.calls.map(([m]) => m)).toEqual([
      'AppModule dependencies initialized',
      'Mapped {/healthz, GET} route',
    ]);
    expect(inner.log).toHaveBeenCalledWith('imported tenant acme', 'TenantFiles');
    expect(inner.warn).toHaveBeenCalledWith('careful', 'TenantFiles');
  });
});
