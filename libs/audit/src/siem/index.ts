// The SIEM forwarder's public names (re-exported by the audit lib's index.ts).
export { SiemModule } from './siem.module.js';
export { MAX_DEAD_LETTERS_LISTED, SIEM_PRODUCT_VERSION, SiemForwarder } from './siem-forwarder.js';
export type { SinkStatus } from './siem-forwarder.js';
export { DEFAULT_SIEM_OPTIONS, DEFAULT_SINK_OPTIONS } from './siem.options.js';
export type {
  HttpsSinkOptions,
  SiemOptions,
  SinkOptions,
  SinkTls,
  SyslogSinkOptions,
} from './siem.options.js';
export type { DeadLetter } from './sink-state.repository.js';
export type { SiemRecord } from './formats/siem-record.js';
