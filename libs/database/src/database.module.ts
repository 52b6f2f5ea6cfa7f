import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AsyncModuleOptions } from '@toolgate/toolkit';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { dataSourceOptions, parseDatabaseUrl } from './database-url.js';
import type { DatabaseOptions } from './database.options.js';
import { runMigrationsLocked } from './migration-runner.js';
import { TransactionRunner } from './transaction-runner.js';

/**
 * The one TypeORM connection, from `DATABASE_URL`: embedded SQLite by default, MySQL/MariaDB via
 * mysql2. Migrations run at boot (never `synchronize`). Libs register entities with
 * `TypeOrmModule.forFeature` as usual and reach the database only through their repositories.
 */
@Module({})
export class DatabaseModule {
  static forRootAsync(options: AsyncModuleOptions<DatabaseOptions>): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          imports: options.imports,
          inject: options.inject,
          useFactory: async (...args: unknown[]) => {
            const o = await options.useFactory(...args);
            return {
              ...dataSourceOptions(parseDatabaseUrl(o.url), o),
              migrations: o.migrations,
              migrationsRun: false,
              synchronize: false,
              autoLoadEntities: true,
              logging: o.logging ?? false,
              retryAttempts: 3,
              retryDelay: 1000,
            };
          },
          dataSourceFactory: async (dsOptions) => {
            const dataSource = await new DataSource(dsOptions as DataSourceOptions).initialize();
            await runMigrationsLocked(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: [TransactionRunner],
      exports: [TypeOrmModule, TransactionRunner],
    };
  }
}
