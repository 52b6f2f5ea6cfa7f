import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { methodNotAllowed, REFUSES_METHOD } from './method-not-allowed.js';
import { DEFAULT_LOCALE_PROPERTY } from './request-locale.js';
import { useResponseHeaders } from './security-headers.js';

describe('methodNotAllowed (as the response-headers hook calls it)', () => {
  let fastify: FastifyInstance;

  beforeEach(async () => {
    fastify = Fastify();
    fastify.decorateRequest(DEFAULT_LOCALE_PROPERTY, 'en');
    useResponseHeaders(fastify, methodNotAllowed(fastify, 1024));
    fastify.get('/v1/items/:id', async () => ({ data: 'item', status: 'ok' }));
    fastify.delete('/v1/items/:id', async () => ({ data: 'gone', status: 'ok' }));
    fastify.post('/v1/items/special', async () => ({ data: 'special', status: 'ok' }));
    fastify.post('/rpc/:name', async () => ({ ok: true }));
    fastify.get('/rpc/:name', { config: REFUSES_METHOD }, async (_req, reply) =>
      reply.status(405).header('allow', 'POST').send({ refused: true }),
    );
    await fastify.ready();
  });
  afterEach(() => fastify.close());

  it('answers a method the path does not declare with 405, Allow and the INVALID_INPUT envelope', async () => {
    const res = await fastify.inject({ method: 'PUT', url: '/v1/items/7?x=1', payload: { a: 1 } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, DELETE');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.stringify(res.json())).toContain(
      'PUT is not allowed on this path; it allows GET, HEAD, DELETE',
    );
  });

  it('allows what the router would match for the method: a static path and a parameter of another method', async () => {
    // GET /v1/items/special is GET /v1/items/:id; POST is the static route.
    const res = await fastify.inject({ method: 'PATCH', url: '/v1/items/special' });
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'GET, HEAD, POST, DELETE']);
  });

  it('leaves routes that only refuse their method out of Allow', async () => {
    const res = await fastify.inject({ method: 'PUT', url: '/rpc/x' });
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'POST']);
    expect((await fastify.inject({ method: 'GET', url: '/rpc/x' })).json()).toEqual({ refused: true });
  });

  it('keeps 404 for a path no route has, and serves declared methods as before', async () => {
    const unknown = await fastify.inject({ method: 'PUT', url: '/v1/nothing/here' });
    expect([unknown.statusCode, unknown.headers.allow]).toEqual([404, undefined]);
    expect((await fastify.inject({ method: 'DELETE', url: '/v1/items/7' })).json()).toEqual({
      data: 'gone',
      status: 'ok',
    });
  });

  it('still finds the path when a parameter is longer than the router allows', async () => {
    const res = await fastify.inject({ method: 'PUT', url: `/v1/items/${'x'.repeat(500)}` });
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'GET, HEAD, DELETE']);
  });
});
