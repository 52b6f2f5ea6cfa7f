import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('.', import.meta.url).pathname;

/** The lib's source files (specs aside) and the modules each imports. */
function importsOf(dir: string): [string, string[]][] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .map((f) => [
      f,
      [...readFileSync(join(dir, f), 'utf8').matchAll(/from '([^']+)'/g)].map(([, module]) => module!),
    ]);
}

describe('libs/contract stays plain', () => {
  it('imports nothing but Zod and itself (no Nest, no TypeORM, no Node built-ins), so the console can use it', () => {
    const foreign = importsOf(SRC).flatMap(([file, modules]) =>
      modules.filter((m) => m !== 'zod' && !m.startsWith('.')).map((m) => `${file}: ${m}`),
    );
    expect(foreign).toEqual([]);
  });

  it('keeps Zod out of the rules the console bundles', () => {
    const withZod = importsOf(join(SRC, 'rules')).filter(([, modules]) => modules.includes('zod'));
    expect(withZod).toEqual([]);
  });
});
