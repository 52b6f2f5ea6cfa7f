import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { dataSourceOptions, parseDatabaseUrl } from './database-url.js';
import type { DatabaseOptions } from './database.options.js';
import { addInFlightKey } from './in-flight-seal.js';
import { runMigrationsLocked } from './migration-runner.js';
import { TransactionRunner } from './transaction-runner.js';

/**
 * The one TypeORM connection, from `DATABASE_URL`: embedded SQLite by default, MySQL/MariaDB via
 * mysql2. Migrations run at boot (never `synchronize`). Libs register entities with
 * `TypeOrmModule.forFeature` as usual and reach the database only through their repositories.
 *
 * A plain `forRoot` rather than ConfigurableModuleBuilder (ADR 012): the options go straight into
 * TypeORM's module here, no provider of this lib injects them.
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    if (options.inFlightKey) addInFlightKey(options.inFlightKey);
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        // forRootAsync only for its dataSourceFactory: migrations run under a lock before use.
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(parseDatabaseUrl(options.url), options),
            migrations: options.migrations,
            migrationsRun: false,
            synchronize: false,
            autoLoadEntities: true,
            logging: options.logging ?? false,
            retryAttempts: 3,
            retryDelay: 1000,
          }),
          dataSourceFactory: async (dsOptions) => {
            if (options.migrationUrl) {
              // Schema changes through their own account, closed before the runtime one opens (two
              // connections: one holds the migration lock while the other migrates).
              const migrator = await new DataSource({
                ...dataSourceOptions(parseDatabaseUrl(options.migrationUrl), { poolSize: 2 }),
                migrations: options.migrations,
              } as DataSourceOptions).initialize();
              try {
                await runMigrationsLocked(migrator, options.appendOnly);
              } finally {
                await migrator.destroy();
              }
              return new DataSource(dsOptions as DataSourceOptions).initialize();
            }
            const dataSource = await new DataSource(dsOptions as DataSourceOptions).initialize();
            await runMigrationsLocked(dataSource, options.appendOnly);
            return dataSource;
          },
        }),
      ],
      providers: [TransactionRunner],
      exports: [TypeOrmModule, TransactionRunner],
    };
  }
}
