// The thread that reads OpenAPI documents (openapi-parse-pool.ts starts one per document).
// No @toolgate imports in this file's graph: from TypeScript sources it is compiled on the fly.
import { parentPort } from 'node:worker_threads';
import { runParseJob, type ParseJob } from './openapi-parse-job.js';

parentPort?.once('message', (job: ParseJob) => {
  // As JSON text: parsing it costs the gateway's thread a third of what deserializing the
  // structured clone of the same objects does (600 operations: 7 ms against 30 ms).
  void runParseJob(job).then((answer) => parentPort?.postMessage(JSON.stringify(answer)));
});
