import { apiKeyViewSchema } from '@toolgate/contract';
import { instanceToPlain } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { ApiKeyEntity, toApiKeyView } from './api-key.entity.js';

const HASH = 'a'.repeat(64);

const row = () =>
  Object.assign(new ApiKeyEntity(), {
    id: 'key_1',
    name: 'ops bot',
    role: 'agent' as const,
    tenantId: 'acme',
    agentTypes: ['ops_assistant'],
    keyHash: HASH,
    keyPrefix: 'tg_abc',
    owner: 'oidc:42',
    createdBy: 'system',
    createdAt: new Date('2026-01-01T09:00:00Z'),
    revokedAt: null,
    bootstrap: false,
  });

describe('an API key as the API shows it', () => {
  it('is exactly the contract’s ApiKeyView: exposed fields, the prefix, ISO dates', () => {
    const view = toApiKeyView(row());
    expect(view).toEqual({
      id: 'key_1',
      name: 'ops bot',
      role: 'agent',
      tenantId: 'acme',
      agentTypes: ['ops_assistant'],
      owner: 'oidc:42',
      prefix: 'tg_abc',
      createdAt: '2026-01-01T09:00:00.000Z',
      createdBy: 'system',
      revokedAt: null,
    });
    expect(apiKeyViewSchema.strict().parse(view)).toEqual(view);
  });

  it('never carries the hash: not in the view, not from a copy of the row, not through JSON', () => {
    const key = row();
    const answers = [
      toApiKeyView(key),
      toApiKeyView({ ...key }), // a spread copy is no ApiKeyEntity: it is made one first
      instanceToPlain(key),
      JSON.parse(JSON.stringify(key)),
      JSON.parse(JSON.stringify({ data: [key] })),
    ];
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(HASH);
      expect(JSON.stringify(answer)).not.toContain('keyHash');
    }
  });

  it('hides a column nobody decided to show (the class excludes all, fields opt in)', () => {
    expect(toApiKeyView(Object.assign(row(), { bootstrap: true }))).not.toHaveProperty('bootstrap');
  });
});
