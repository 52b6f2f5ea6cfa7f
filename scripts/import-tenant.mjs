// Imports a tenant file into a running gateway on purpose, as new versions of the agent types that
// differ (POST /v1/admin/tenants/:id/import): what the gateway's log names when it did not apply a
// changed file by itself (ADR 029).
//
//   npm run tenant:import -- config/tenants/acme.yaml
//
// The gateway: $TG, else http://localhost:$PORT (3000). The key: $ADMIN, else TOOLGATE_ADMIN_KEY,
// else the platform admin key kept in $TOOLGATE_DATA_DIR/admin-key (data/admin-key).
/* global fetch */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import process from 'node:process';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run tenant:import -- config/tenants/<tenant>.yaml\n');
  process.exit(2);
}
const tenantId = basename(file).replace(/\.ya?ml$/, '');
const base = process.env.TG ?? `http://localhost:${process.env.PORT || 3000}`;
const keptKey = join(process.env.TOOLGATE_DATA_DIR || 'data', 'admin-key');
const key =
  process.env.ADMIN ??
  process.env.TOOLGATE_ADMIN_KEY ??
  (existsSync(keptKey) ? readFileSync(keptKey, 'utf8').trim() : undefined);
if (!key) {
  process.stderr.write(`no admin key: set ADMIN (or TOOLGATE_ADMIN_KEY); ${keptKey} does not exist\n`);
  process.exit(2);
}
const res = await fetch(`${base}/v1/admin/tenants/${encodeURIComponent(tenantId)}/import`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ yaml: readFileSync(file, 'utf8') }),
});
process.stdout.write(`${res.status} ${await res.text()}\n`);
process.exit(res.ok ? 0 : 1);
