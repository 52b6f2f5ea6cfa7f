import { Injectable } from '@nestjs/common';
import { ForbiddenVariableError, type VariableLookup } from './config/variables.js';
import { isTenantVariable, tenantVariablePrefix } from './config/tenant-variables.js';

/**
 * Values for `${NAME}` placeholders in tenant files. A tenant reads its own reserved environment
 * variables (`TOOLGATE_T_<TENANT>__*`) and the platform's public variables — values registered in
 * the process by platform code (the demo backends publish their loopback URLs), never secrets.
 */
@Injectable()
export class ConfigVariables {
  private readonly published = new Map<string, string>();

  /** Publishes a non-secret value every tenant file may use. */
  set(name: string, value: string): void {
    this.published.set(name, value);
  }

  /** The lookup for one tenant's placeholders; throws ForbiddenVariableError outside its namespace. */
  lookupFor(tenantId: string): VariableLookup {
    return (name) => {
      const published = this.published.get(name);
      if (published !== undefined) return published;
      if (!isTenantVariable(tenantId, name))
        throw new ForbiddenVariableError(name, tenantVariablePrefix(tenantId));
      return process.env[name];
    };
  }
}
