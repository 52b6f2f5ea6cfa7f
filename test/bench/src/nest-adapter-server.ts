import 'reflect-metadata';
import { Controller, HttpCode, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ExpressAdapter } from '@nestjs/platform-express';

/**
 * The smallest Nest app on either HTTP adapter (`BENCH_ADAPTER=express|fastify`): one POST route
 * answering the envelope of a no-op tool. Measures what the adapter alone costs, to choose one.
 */
@Controller()
class BareController {
  @Post('invoke')
  @HttpCode(200)
  invoke() {
    return { data: { ok: true }, status: 'ok' };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const adapter = process.env.BENCH_ADAPTER === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  const app: INestApplication = await NestFactory.create(BareModule, adapter, { logger: false });
  await app.listen(0, '127.0.0.1');
  const port = Number(new URL(await app.getUrl()).port);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
