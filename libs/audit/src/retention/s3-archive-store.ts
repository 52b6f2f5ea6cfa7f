import { Client } from 'minio';
import type { ArchiveStore } from '../archive/archive-store.js';
import type { S3ArchiveOptions } from './retention.options.js';

/** The largest object read back: an archived day is capped in events, far below this. */
export const MAX_ARCHIVE_OBJECT_BYTES = 512 * 1024 * 1024;

/**
 * An ArchiveStore in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Aliyun OSS, Tencent COS),
 * through the maintained `minio` client (ADR 037). The endpoint is the platform's setting, never
 * a tenant's; keys live under `prefix`. Point it at a bucket with object lock (WORM) so that the
 * database's administrators cannot take back what left the gateway.
 */
export class S3ArchiveStore implements ArchiveStore {
  readonly location: string;
  private readonly client: Client;
  private bucketChecked?: Promise<void>;

  constructor(private readonly o: S3ArchiveOptions) {
    const url = new URL(o.endpoint);
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      useSSL: url.protocol === 'https:',
      accessKey: o.accessKey,
      secretKey: o.secretKey,
      region: o.region,
      pathStyle: o.pathStyle,
    });
    this.location = `s3 ${url.origin}/${o.bucket}/${o.prefix}`;
  }

  async put(key: string, body: string | Buffer): Promise<void> {
    await this.ready();
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    await this.client.putObject(this.o.bucket, this.name(key), data, data.length);
  }

  async get(key: string): Promise<Buffer | null> {
    await this.ready();
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.client.getObject(this.o.bucket, this.name(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > MAX_ARCHIVE_OBJECT_BYTES) {
        (stream as unknown as { destroy(): void }).destroy();
        throw new Error(`archive object ${key} is larger than ${MAX_ARCHIVE_OBJECT_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  async list(prefix: string): Promise<string[]> {
    await this.ready();
    const full = this.name(prefix);
    const out: string[] = [];
    for await (const item of this.client.listObjectsV2(this.o.bucket, full, false) as AsyncIterable<{
      name?: string;
    }>) {
      if (item.name) out.push(`${prefix}${item.name.slice(full.length)}`);
    }
    return out.sort();
  }

  private name(key: string): string {
    if (key.split('/').some((p) => p === '..') || key.startsWith('/'))
      throw new Error(`invalid archive key: ${key}`);
    return `${this.o.prefix}${key}`;
  }

  /** The bucket is the operator's; a missing one is created once (a test store, a fresh MinIO). */
  private ready(): Promise<void> {
    this.bucketChecked ??= (async () => {
      if (!(await this.client.bucketExists(this.o.bucket)))
        await this.client.makeBucket(this.o.bucket, this.o.region);
    })().catch((err: Error) => {
      this.bucketChecked = undefined;
      throw err;
    });
    return this.bucketChecked;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound';
}
