import { describe, expect, it } from 'vitest';
import { parseDocumentOffThread } from './openapi-parse-pool.js';
import { OpenApiSourceError } from './openapi-source-error.js';

const documentUrl = 'http://127.0.0.1:1/docs/openapi.json';

const petstore = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: '/v1' }],
  paths: {
    '/pets/{id}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          200: {
            description: 'A pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: { Pet: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
  },
});

async function failureOf(promise: Promise<unknown>): Promise<OpenApiSourceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OpenApiSourceError);
  return err as OpenApiSourceError;
}

/**
 * The time limit counts a worker's start-up too, which a loaded machine can stretch past the
 * product's limit; the specs that expect an answer give it room (the limit has its own case).
 */
const roomy = { timeLimitMs: 120_000 };

describe('parseDocumentOffThread', () => {
  it('answers the operations as tools and the base URL, read in a worker thread', async () => {
    const parsed = await parseDocumentOffThread({ text: petstore, documentUrl }, roomy);
    expect(parsed.baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(parsed.operations.map((o) => o.definition.name)).toEqual(['get_pet']);
    expect(parsed.operations[0]!.definition.outputSchema).toMatchObject({
      properties: { name: { type: 'string' } },
    });
    expect(parsed.operations[0]!.plan).toMatchObject({ method: 'GET', path: '/pets/{id}' });
  });

  it('answers the failure kind of an unusable document, with no stack', async () => {
    const broken = await failureOf(parseDocumentOffThread({ text: '{"openapi": ', documentUrl }, roomy));
    expect(broken.failure).toBe('invalid');
    const swagger = await failureOf(
      parseDocumentOffThread({ text: '{"swagger":"2.0","paths":{}}', documentUrl }, roomy),
    );
    expect(swagger.failure).toBe('unsupported');
    const invalid = await failureOf(
      parseDocumentOffThread({ text: '{"openapi":"3.0.3","paths":{"/x":{"get":{}}}}', documentUrl }, roomy),
    );
    expect(invalid).toMatchObject({ failure: 'invalid', message: expect.stringContaining('not valid') });
    expect(invalid.message).not.toMatch(/\n\s+at /);
  });

  it('terminates a thread past its time limit and says so', async () => {
    const late = await failureOf(parseDocumentOffThread({ text: petstore, documentUrl }, { timeLimitMs: 5 }));
    expect(late).toMatchObject({ failure: 'invalid', message: expect.stringContaining('longer than') });
    // The slot it held is free again.
    await expect(parseDocumentOffThread({ text: petstore, documentUrl }, roomy)).resolves.toBeDefined();
  });

  it('runs many documents, a few threads at a time, each answered', async () => {
    const all = await Promise.all(
      Array.from({ length: 5 }, () => parseDocumentOffThread({ text: petstore, documentUrl }, roomy)),
    );
    expect(all.map((p) => p.operations.length)).toEqual([1, 1, 1, 1, 1]);
  });
});
