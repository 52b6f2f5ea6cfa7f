// Outside tool sources (MCP servers, OpenAPI services) imported as governed, pinned tools (issue 11).
export type {
  UpstreamCallOptions,
  UpstreamCallOutcome,
  UpstreamClient,
  UpstreamToolDefinition,
} from './sources/tool-source.js';
