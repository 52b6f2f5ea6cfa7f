import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { clientErrorHandler } from './framework-errors.js';

/** A socket that records what is written to it. */
function fakeSocket() {
  const written: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      callback();
    },
  });
  return { socket, text: () => Buffer.concat(written).toString('utf8') };
}

const parserError = (code: string) => Object.assign(new Error(code), { code });
const settle = () => new Promise((r) => setImmediate(r));

describe('clientErrorHandler', () => {
  const handle = clientErrorHandler('en', 1024);

  it.each([
    ['HPE_UNEXPECTED_CONTENT_LENGTH', 400, 'not both'],
    ['HPE_INVALID_CHUNK_SIZE', 400, 'chunked body'],
    ['HPE_INVALID_METHOD', 400, 'method'],
    ['HPE_CR_EXPECTED', 400, 'not valid HTTP/1.1'],
    ['HPE_HEADER_OVERFLOW', 431, 'too large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'in time'],
  ])('answers %s with a %i envelope and closes', async (code, status, message) => {
    const { socket, text } = fakeSocket();
    handle(parserError(code), socket);
    await settle();
    const [head, body] = text().split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toContain('content-type: application/json; charset=utf-8');
    expect(head).toContain('x-content-type-options: nosniff');
    expect(head).toContain(`content-length: ${Buffer.byteLength(body!)}`);
    expect(JSON.parse(body!)).toMatchObject({
      code: 'INVALID_INPUT',
      error: expect.stringContaining(message),
    });
    expect(socket.destroyed).toBe(true);
  });

  it('writes nothing when the network failed rather than the request', async () => {
    const { socket, text } = fakeSocket();
    handle(parserError('ECONNRESET'), socket);
    await settle();
    expect(text()).toBe('');
    expect(socket.destroyed).toBe(true);
  });
});
