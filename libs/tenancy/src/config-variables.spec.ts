import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigVariables } from './config-variables.js';
import { expandVariables, ForbiddenVariableError, MissingVariableError } from './config/variables.js';

const OWN = 'TOOLGATE_T_ACME__OPS_TOKEN';
const OTHER_TENANT = 'TOOLGATE_T_GLOBEX__OPS_TOKEN';

describe('tenant placeholders', () => {
  let variables: ConfigVariables;
  beforeEach(() => {
    variables = new ConfigVariables();
    process.env[OWN] = 'acme-secret';
    process.env[OTHER_TENANT] = 'globex-secret';
  });
  afterEach(() => {
    delete process.env[OWN];
    delete process.env[OTHER_TENANT];
  });

  it("expands a tenant's own variables and published platform values, in every nested string", () => {
    variables.set('DEMO_OPS_URL', 'http://127.0.0.1:4000');
    const expanded = expandVariables(
      { baseUrl: '${DEMO_OPS_URL}/api', auth: [`Bearer \${${OWN}}`], retries: 3 },
      variables.lookupFor('acme'),
    );
    expect(expanded).toEqual({
      baseUrl: 'http://127.0.0.1:4000/api',
      auth: ['Bearer acme-secret'],
      retries: 3,
    });
  });

  it("refuses another tenant's variables and the platform's own environment, even with a default", () => {
    const lookup = variables.lookupFor('acme');
    expect(() => expandVariables(`\${${OTHER_TENANT}}`, lookup)).toThrow(ForbiddenVariableError);
    expect(() => expandVariables('${DATABASE_URL:-sqlite:x}', lookup)).toThrow(
      '${DATABASE_URL} is not a variable of this tenant: use TOOLGATE_T_ACME__<NAME> or a platform variable',
    );
    // The bare prefix is not a variable of the tenant either.
    expect(() => expandVariables('${TOOLGATE_T_ACME__}', lookup)).toThrow(ForbiddenVariableError);
  });

  it('uses the default of an unset variable, and fails naming a variable with neither value nor default', () => {
    const lookup = variables.lookupFor('acme');
    expect(expandVariables('${TOOLGATE_T_ACME__MISSING:-fallback}', lookup)).toBe('fallback');
    expect(expandVariables('${TOOLGATE_T_ACME__MISSING:-}', lookup)).toBe('');
    expect(() => expandVariables('${TOOLGATE_T_ACME__MISSING}', lookup)).toThrow(MissingVariableError);
  });

  it('maps a tenant id with dashes to underscores in its namespace', () => {
    process.env.TOOLGATE_T_NORTH_EAST__TOKEN = 'ne';
    try {
      expect(expandVariables('${TOOLGATE_T_NORTH_EAST__TOKEN}', variables.lookupFor('north-east'))).toBe(
        'ne',
      );
    } finally {
      delete process.env.TOOLGATE_T_NORTH_EAST__TOKEN;
    }
  });
});
