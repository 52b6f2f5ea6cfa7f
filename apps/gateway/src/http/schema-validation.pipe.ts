import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { compileSchema, type CompiledSchema, type ToolSchema } from '@toolgate/toolkit';
import { InputRejectedError } from './input-rejected.error.js';

/**
 * Validates every `@Body({ schema })`, `@Query({ schema })` and `@Param(..., { schema })` with the
 * platform's own schema checks, so request errors read exactly like tool input errors and refuse
 * unknown fields by name.
 */
@Injectable()
export class SchemaValidationPipe implements PipeTransform {
  private readonly compiled = new WeakMap<object, CompiledSchema>();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const schema = (metadata as ArgumentMetadata & { schema?: object }).schema;
    if (!schema) return value;
    let compiled = this.compiled.get(schema);
    if (!compiled) {
      compiled = compileSchema(schema as ToolSchema, 'input');
      this.compiled.set(schema, compiled);
    }
    const checked = compiled.check(value ?? (metadata.type === 'body' ? undefined : {}));
    if (!checked.ok) throw new InputRejectedError(checked.issues);
    return checked.value;
  }
}
