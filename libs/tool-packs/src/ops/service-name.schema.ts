import { z } from 'zod';
import { SERVICE_NAME_MAX_LENGTH } from './ops.constants.js';

/** The `service` field every ops tool takes. */
export const serviceNameField = z
  .string()
  .min(1)
  .max(SERVICE_NAME_MAX_LENGTH)
  .describe('服务名，例如 payment-api');
