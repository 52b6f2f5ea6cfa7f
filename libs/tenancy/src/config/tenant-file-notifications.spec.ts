import { describe, expect, it } from 'vitest';
import { tenantFileSchema } from './tenant-file.schema.js';

const file = (secretEnv: string) => ({
  id: 'acme',
  name: 'ACME',
  notifications: {
    channels: { hook: { type: 'webhook', url: 'https://hooks.example/x', secretEnv } },
    routes: [{ channels: ['hook'] }],
  },
});

describe('notifications in tenant files', () => {
  it("accepts secrets from the tenant's own TOOLGATE_NOTIFY_<TENANT>__ namespace", () => {
    expect(tenantFileSchema.safeParse(file('TOOLGATE_NOTIFY_ACME__HOOK_SECRET')).success).toBe(true);
  });

  it("refuses another tenant's variables (a tenant admin could send them to a host of its own)", () => {
    const parsed = tenantFileSchema.safeParse(file('TOOLGATE_NOTIFY_GLOBEX__HOOK_SECRET'));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['notifications', 'channels', 'hook', 'secretEnv'],
      message: expect.stringContaining('TOOLGATE_NOTIFY_ACME__'),
    });
    // `acme_x` is another tenant: its namespace is not inside acme's.
    expect(tenantFileSchema.safeParse({ ...file('TOOLGATE_NOTIFY_ACME__X'), id: 'acme_x' }).success).toBe(
      false,
    );
  });
});
