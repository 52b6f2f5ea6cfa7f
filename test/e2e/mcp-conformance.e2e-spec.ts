import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Module } from '@nestjs/common';
import {
  CredentialProxy,
  makeConfigDir,
  nodeAtLeast,
  startTestGateway,
  type TestGateway,
} from '@toolgate/testing';
import { defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

/*
 * The official MCP conformance suite (@modelcontextprotocol/conformance, its `server` command, from
 * node_modules: nothing is downloaded) against a real gateway, for the server scenarios that apply
 * to a stateless, tools-only server. The suite connects with a bare URL, so it reaches the gateway
 * through a loopback proxy that adds the agent key (as an agent host would); the gateway's public
 * URL is the proxy's, so the proxy's origin is the gateway's own (dns-rebinding-protection).
 * The tools below are the suite's reference tools, as Toolgate tools bound to one agent type.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
).toString('base64');
const WAV = Buffer.from(
  'RIFF$\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x40\x1f\0\0\x80\x3e\0\0\x02\0\x10\0data\0\0\0\0',
  'latin1',
).toString('base64');

const none = z.object({});
const reference = [
  defineToolContract({
    name: 'test_simple_text',
    description: 'Answers a simple text (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
    toModelOutput: (o: { text: string }) => ({ type: 'text', value: o.text }),
  }).implement(() => ({ text: 'This is a simple text response for testing.' })),
  defineToolContract({
    name: 'test_image_content',
    description: 'Answers an image (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
    toModelOutput: () => ({ type: 'content', value: [{ type: 'file', data: PNG, mediaType: 'image/png' }] }),
  }).implement(() => ({ image: 'png' })),
  defineToolContract({
    name: 'test_audio_content',
    description: 'Answers a sound (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
    toModelOutput: () => ({ type: 'content', value: [{ type: 'file', data: WAV, mediaType: 'audio/wav' }] }),
  }).implement(() => ({ audio: 'wav' })),
  defineToolContract({
    name: 'test_embedded_resource',
    description: 'Answers an embedded resource (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
    toModelOutput: () => ({
      type: 'content',
      value: [
        {
          type: 'file',
          data: Buffer.from('This is an embedded resource content.').toString('base64'),
          mediaType: 'text/plain',
        },
      ],
    }),
  }).implement(() => ({ resource: 'text' })),
  defineToolContract({
    name: 'test_multiple_content_types',
    description: 'Answers text, an image and a resource (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
    toModelOutput: () => ({
      type: 'content',
      value: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'file', data: PNG, mediaType: 'image/png' },
        {
          type: 'file',
          data: Buffer.from('{"test":"data","value":123}').toString('base64'),
          mediaType: 'application/json',
        },
      ],
    }),
  }).implement(() => ({ parts: 3 })),
  defineToolContract({
    name: 'test_error_handling',
    description: 'Always fails (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
  }).implement(() => {
    throw new Error('This tool intentionally returns an error for testing');
  }),
  defineToolContract({
    name: 'test_tool_with_progress',
    description: 'Reports progress three times (MCP conformance reference tool).',
    inputSchema: none,
    risk: { level: 'L0' },
  }).implement(async function* () {
    for (const done of [0, 50, 100]) {
      yield { done };
      await new Promise((r) => setTimeout(r, 20));
    }
  }),
  defineToolContract({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features (MCP conformance reference tool).',
    dynamic: true,
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    risk: { level: 'L0' },
  }).implement(() => ({ ok: true })),
];

@Module({ imports: [ToolkitModule.forFeature(reference, 'ConformanceReferenceTools')] })
class ConformanceToolsModule {}

const CONFCO_YAML = `
id: confco
name: Conformance Co
agentTypes:
  conformance:
    description: The MCP conformance suite's reference tools.
    tools:
${reference.map((t) => `      - ${t.name}`).join('\n')}
`;

/**
 * The server scenarios of the suite (0.1.16) that apply to a stateless, tools-only server with
 * its keys and governance. The others, and why they do not apply, are in EXPECTED_FAILURES.
 */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'json-schema-2020-12',
  'dns-rebinding-protection',
];

/**
 * Scenarios that cannot apply, each with its reason; the suite's baseline file (`--expected-failures`)
 * makes it fail if one of them passes after all, or if an applicable one fails.
 */
const EXPECTED_FAILURES: Record<string, string> = {
  'logging-set-level': 'no logging capability: tool calls are audited, not logged to the client',
  'tools-call-with-logging': 'no logging capability (notifications/message)',
  'completion-complete': 'tools only: no prompts or resource templates to complete',
  'tools-call-sampling': 'stateless: no server-to-client request (sampling) has a reply to travel on',
  'tools-call-elicitation': 'stateless: no server-to-client request (elicitation) has a reply to travel on',
  'elicitation-sep1034-defaults': 'stateless: no elicitation',
  'elicitation-sep1330-enums': 'stateless: no elicitation',
  'server-sse-polling': 'stateless: no session, no resumable SSE stream (GET answers 405)',
  'server-sse-multiple-streams': 'stateless: no session, no standalone GET stream (405)',
  'resources-list': 'tools only: no resources',
  'resources-read-text': 'tools only: no resources',
  'resources-read-binary': 'tools only: no resources',
  'resources-templates-read': 'tools only: no resources',
  'resources-subscribe': 'tools only: no resources',
  'resources-unsubscribe': 'tools only: no resources',
  'prompts-list': 'tools only: no prompts',
  'prompts-get-simple': 'tools only: no prompts',
  'prompts-get-with-args': 'tools only: no prompts',
  'prompts-get-embedded-resource': 'tools only: no prompts',
  'prompts-get-with-image': 'tools only: no prompts',
};

const CLI = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

describe('the official MCP conformance suite, server scenarios', () => {
  let gw: TestGateway;
  let proxy: CredentialProxy;
  let url: string;

  beforeAll(async () => {
    // The proxy listens first: a port only reserved while the gateway starts was once taken by
    // another socket meanwhile (EADDRINUSE, and this hook hung).
    proxy = await new CredentialProxy(new URL('http://127.0.0.1:1'), '').start();
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ confco: CONFCO_YAML }),
        TOOLGATE_PUBLIC_URL: `http://127.0.0.1:${proxy.port}`,
      },
      imports: [ConformanceToolsModule],
    });
    proxy.forward(new URL(gw.url), await gw.createKey('agent', 'confco'));
    url = `http://127.0.0.1:${proxy.port}/mcp/conformance`;
  });
  afterAll(async () => {
    await proxy?.close();
    await gw?.close();
  });

  it('passes every scenario that applies to a stateless tools-only server, and no other', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
    const baseline = join(out, 'expected-failures.yaml');
    writeFileSync(
      baseline,
      `server:\n${Object.keys(EXPECTED_FAILURES)
        .map((s) => `  - ${s}`)
        .join('\n')}\n`,
    );
    const run = await promisify(execFile)(
      nodeAtLeast(22),
      [CLI, 'server', '--url', url, '--suite', 'all', '--expected-failures', baseline, '-o', out],
      { cwd: out, timeout: 240_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    ).catch((err: { stdout?: string; stderr?: string; code?: number }) => ({ ...err, failed: true }));
    const output = `${run.stdout ?? ''}\n${run.stderr ?? ''}`;

    // Every scenario's checks, as the suite wrote them.
    const byScenario = new Map<string, Check[]>();
    for (const dir of readdirSync(out, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const scenario = /^server-(.+)-\d{4}-/.exec(dir.name)?.[1] ?? dir.name;
      byScenario.set(
        scenario,
        JSON.parse(readFileSync(join(out, dir.name, 'checks.json'), 'utf8')) as Check[],
      );
    }
    for (const scenario of APPLICABLE) {
      const checks = byScenario.get(scenario);
      expect(checks, `${scenario} did not run:\n${output}`).toBeDefined();
      const failed = checks!.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      expect(failed, `${scenario}: ${JSON.stringify(failed)}`).toEqual([]);
      expect(
        checks!.some((c) => c.status === 'SUCCESS'),
        scenario,
      ).toBe(true);
    }
    expect([...byScenario.keys()].sort()).toEqual([...APPLICABLE, ...Object.keys(EXPECTED_FAILURES)].sort());
    expect('failed' in run, output).toBe(false);
  }, 300_000);
});
