import { makeConfigDir, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feishuAppToken, NotificationPeers } from './notification-peers.js';

/** Two tenants whose Feishu channels name the same app id, each with its own App Secret. */
const SECRETS = {
  TOOLGATE_NOTIFY_ACME__APP_SECRET: 'acme-app-secret-111111',
  TOOLGATE_NOTIFY_GLOBEX__APP_SECRET: 'globex-app-secret-222222',
};
const APP_ID = 'cli_shared_app';

const channelOf = (peer: string, tenant: 'ACME' | 'GLOBEX') => `
notifications:
  channels:
    lark-app:
      type: feishu_app
      url: ${peer}
      appId: ${APP_ID}
      chatId: oc_${tenant.toLowerCase()}
      secretEnv: TOOLGATE_NOTIFY_${tenant}__APP_SECRET
  routes:
    - { risk: [L3], channels: [lark-app] }
`;

describe('Feishu app tokens are kept per tenant, app and secret', () => {
  let gw: TestGateway;
  let peers: NotificationPeers;
  const agents: Record<string, string> = {};

  beforeAll(async () => {
    Object.assign(process.env, SECRETS);
    peers = await new NotificationPeers().start();
    const acme = readFileSync('config/tenants/acme.yaml', 'utf8') + channelOf(peers.url, 'ACME');
    const globex = readFileSync('config/tenants/globex.yaml', 'utf8') + channelOf(peers.url, 'GLOBEX');
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ acme, globex }, 'notifications:\n  pollMs: 200\n'),
      },
    });
    agents.acme = await gw.createKey('agent', 'acme');
    agents.globex = await gw.createKey('agent', 'globex');
  });
  afterAll(async () => {
    await gw?.close();
    await peers?.close();
    for (const k of Object.keys(SECRETS)) delete process.env[k];
  });

  /** Parks a restart in `tenant` and answers the card message its channel sent about it. */
  const announce = async (tenant: 'acme' | 'globex') => {
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: agents[tenant],
      body: { input: { service: 'order-api', reason: 'memory leak' } },
    });
    expect(parked.status).toBe(202);
    const [message] = await waitFor(() => {
      const found = peers.about('/open-apis/im/', parked.body.approvalId);
      return found.length ? found : undefined;
    });
    return message!;
  };

  it('posts each tenant’s card with that tenant’s own token, never another’s', async () => {
    const acme = await announce('acme');
    const globex = await announce('globex');
    expect(acme.body.receive_id).toBe('oc_acme');
    expect(acme.headers.authorization).toBe(
      `Bearer ${feishuAppToken(APP_ID, SECRETS.TOOLGATE_NOTIFY_ACME__APP_SECRET)}`,
    );
    expect(globex.body.receive_id).toBe('oc_globex');
    expect(globex.headers.authorization).toBe(
      `Bearer ${feishuAppToken(APP_ID, SECRETS.TOOLGATE_NOTIFY_GLOBEX__APP_SECRET)}`,
    );
    // Each tenant asked for its token once, with its own secret; later cards reuse it.
    await announce('acme');
    const asked = peers.received.filter((m) => m.path.endsWith('/tenant_access_token/internal'));
    expect(asked.map((m) => m.body.app_secret).sort()).toEqual(Object.values(SECRETS).sort());
  });
});
