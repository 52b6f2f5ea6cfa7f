import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import type { ToolSchema } from '@toolgate/toolkit';
import { checkRequestPart } from './request-schemas.js';

/** Validates every `@Body({ schema })`, `@Query({ schema })` and `@Param(..., { schema })`. */
@Injectable()
export class SchemaValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const schema = (metadata as ArgumentMetadata & { schema?: ToolSchema }).schema;
    if (!schema) return value;
    // A POST without a body is an empty object, like a query without parameters.
    return checkRequestPart(schema, value ?? {});
  }
}
