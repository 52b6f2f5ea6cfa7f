import { Injectable } from '@nestjs/common';
import { TOOL_NAME_PATTERN } from '../constants.js';
import type { ConnectorDefinition } from '../definition/define-connector.js';
import { ToolDefinitionError } from '../errors/toolgate-error.js';
import { compileSchema, type CompiledSchema } from '../schema/compiled-schema.js';
import { SchemaExportError } from '../schema/json-schema.js';

/** A connector with its compiled configuration schema. */
export interface RegisteredConnector {
  readonly definition: ConnectorDefinition;
  readonly config: CompiledSchema;
}

/** Every connector the loaded tool packs declare. */
@Injectable()
export class ConnectorRegistry {
  private readonly connectors = new Map<string, RegisteredConnector>();

  register(definition: ConnectorDefinition, source: string): void {
    const label = `connector "${definition?.name ?? '(unnamed)'}" (${source})`;
    if (typeof definition?.name !== 'string' || !TOOL_NAME_PATTERN.test(definition.name)) {
      throw new ToolDefinitionError([`${label}: name must be snake_case`]);
    }
    if (this.connectors.has(definition.name)) throw new ToolDefinitionError([`${label}: duplicated`]);
    if (typeof definition.create !== 'function')
      throw new ToolDefinitionError([`${label}: create must be a function`]);
    let config: CompiledSchema;
    try {
      config = compileSchema(definition.configSchema, 'output');
    } catch (err) {
      if (err instanceof SchemaExportError)
        throw new ToolDefinitionError([`${label}: configSchema ${err.message}`]);
      throw err;
    }
    this.connectors.set(definition.name, { definition, config });
  }

  get(name: string): RegisteredConnector | undefined {
    return this.connectors.get(name);
  }

  names(): string[] {
    return [...this.connectors.keys()].sort();
  }
}
