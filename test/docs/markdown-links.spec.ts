import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors } from './markdown-links.js';

const ROOT = join(import.meta.dirname, '../..');

describe('the links of README.md, SECURITY.md and docs/', () => {
  it('every relative link leads to a file that exists, and every #anchor to a heading of it', () => {
    expect(brokenLinks(ROOT)).toEqual([]);
  });

  it('finds a missing file, a missing heading and a missing anchor of the same page', () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'SECURITY.md'), '# Security\n');
    writeFileSync(join(root, 'docs/a.md'), '# A page\n\n## Two words\n\n```\n# not a heading\n```\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '# Readme',
        '[fine](docs/a.md#two-words) ![also](docs/a.md) [self](#readme) `[code](nowhere.md)`',
        '[gone](docs/b.md)',
        '[no heading](docs/a.md#not-a-heading)',
        '[no anchor](#elsewhere) [web](https://example.com/x.md)',
        '```md',
        '[in a fence](nowhere.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(root).map((b) => [b.line, b.target])).toEqual([
      [3, 'docs/b.md'],
      [4, 'docs/a.md#not-a-heading'],
      [5, '#elsewhere'],
    ]);
  });

  it("gives headings GitHub's anchors", () => {
    const anchors = headingAnchors(
      '# Toolgate\n## A five-minute tour\n### `server`\n## MCP, both ways\n## Tests\n## Tests\n## Sign in (OIDC)\n',
    );
    expect([...anchors]).toEqual([
      'toolgate',
      'a-five-minute-tour',
      'server',
      'mcp-both-ways',
      'tests',
      'tests-1',
      'sign-in-oidc',
    ]);
  });
});
