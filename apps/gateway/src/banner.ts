import type { AdminKeyOrigin } from '@toolgate/auth';
import type { Settings } from './settings/settings.js';

/** The database URL as the banner shows it: without a password. */
function shownDatabase(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

function adminKeyLines(origin: AdminKeyOrigin): string[] {
  switch (origin.source) {
    case 'environment':
      return ['  admin key  the value of TOOLGATE_ADMIN_KEY'];
    case 'created':
      return [
        `  admin key  ${origin.secret}`,
        origin.file
          ? `             new; kept in ${origin.file} (mode 0600): later starts reuse it and print only where it is`
          : '             shown once; the next boot makes another',
      ];
    case 'file':
      return [`  admin key  kept in ${origin.file}:  export ADMIN=$(cat ${origin.file})`];
    case 'none':
      return [];
  }
}

/**
 * What `npm start` prints once the gateway serves, after every start-up log line: where the
 * console, the API and its docs are, the port, the database, and the platform admin key (in full
 * only at the boot that made it). Tests find the gateway's URL in its first line (`serving on …`).
 */
export function startupBanner(baseUrl: string, settings: Settings, adminKey: AdminKeyOrigin): string {
  const port = new URL(baseUrl).port;
  const lines = [
    '',
    `  Toolgate is serving on ${baseUrl}`,
    '',
    `  console    ${baseUrl}/console`,
    `  REST API   ${baseUrl}/v1  (MCP: ${baseUrl}/mcp/<agentType>)`,
    `  API docs   ${baseUrl}/docs`,
    `  port       ${port}  (PORT; HOST ${settings.server.host})`,
    `  database   ${shownDatabase(settings.database.url)}${settings.tenancy.demo ? '  (demo tenants acme and globex)' : ''}`,
    ...adminKeyLines(adminKey),
    '',
  ];
  return `${lines.join('\n')}\n`;
}
