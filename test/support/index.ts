// Test support: fresh databases and real listening gateways.
export { createTestDatabase, MARIADB_ADMIN, testDatabaseKind } from './test-database.js';
export type { TestDatabase, TestDatabaseKind } from './test-database.js';
export { callApi, startTestGateway, TEST_ADMIN_KEY } from './test-gateway.js';
export type { ApiResponse, TestGateway } from './test-gateway.js';
export { makeConfigDir } from './config-dir.js';
export { openRawSql } from './raw-sql.js';
export { leaveApprovedCallsHeld } from './held-approvals.js';
export type { RawSql } from './raw-sql.js';
export { TcpProxy } from './tcp-proxy.js';
export { runLoad, startGatewayProcess, TOOLS_GATEWAY_MAIN } from './gateway-process.js';
export { LedgerSimulator } from './ledger-simulator.js';
export type { GatewayProcess } from './gateway-process.js';
export { draftFromApiEvent } from './audit-events.js';
export { questionOf, startFakeOpenAI, toolResultsOf } from './fake-openai.js';
export type {
  FakeChatRequest,
  FakeOpenAI,
  FakeOpenAIScript,
  FakeReply,
  FakeToolCall,
} from './fake-openai.js';
export { waitFor, waitForMinuteRoom } from './wait.js';
export type { WaitForOptions } from './wait.js';
export { freePort } from './free-port.js';
export { COUNT_QUERIES_HEADER, countQueries } from './query-counter.js';
export type { CountedRequest } from './query-counter.js';
export { makeTestPki, RSYSLOGD, startHttpsReceiver, startRsyslog } from './siem-peers.js';
export type { HttpsReceiver, RsyslogInstance, TestPki } from './siem-peers.js';
export { RedirectBrowser, startLoopbackIdp } from './oidc-provider.js';
export type { IdpPerson, LoopbackIdp } from './oidc-provider.js';
export { startOtlpReceiver } from './otlp-receiver.js';
export type { OtlpReceiver, ReceivedSpan } from './otlp-receiver.js';
export { CredentialProxy } from './credential-proxy.js';
export { nodeAtLeast } from './tool-node.js';
export { describeStalls, measureStalls, OnCpuStallMeter } from './loop-stalls.js';
export type { Stalls } from './loop-stalls.js';
export {
  adversarialTexts,
  HOSTILE_TEXT_BYTES,
  HOSTILE_TEXT_PHONE,
  plainTextsLike,
} from './hostile-redaction.js';
export {
  createGaleraDatabase,
  GALERA_NODES,
  galeraConflicts,
  galeraConnection,
  galeraNodeState,
  galeraPort,
  killGaleraNode,
  startGaleraCluster,
} from './galera.js';
export type { GaleraDatabase, GaleraNode } from './galera.js';
