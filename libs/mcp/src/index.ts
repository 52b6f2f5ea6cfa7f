// Toolgate as an MCP server: each agent type of a tenant served over Streamable HTTP (issue 11).
export {};
