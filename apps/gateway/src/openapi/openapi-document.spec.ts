import { describe, expect, it } from 'vitest';
import { serverOf } from './openapi-document.js';

describe('the OpenAPI document’s server', () => {
  it('is the public address when TOOLGATE_PUBLIC_URL is set, without a trailing slash', () => {
    expect(serverOf({ publicUrl: 'https://toolgate.example.com/' }).url).toBe('https://toolgate.example.com');
    expect(serverOf({ publicUrl: 'https://example.com/toolgate' }).url).toBe('https://example.com/toolgate');
  });

  it('is relative (/) otherwise, so the paths resolve against wherever the document was read', () => {
    expect(serverOf({}).url).toBe('/');
  });
});
