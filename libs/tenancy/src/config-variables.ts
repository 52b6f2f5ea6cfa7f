import { Injectable } from '@nestjs/common';

/**
 * Values for `${NAME}` placeholders in tenant files: those registered in the process (the demo
 * backends register their loopback URLs) first, then the environment.
 */
@Injectable()
export class ConfigVariables {
  private readonly own = new Map<string, string>();

  set(name: string, value: string): void {
    this.own.set(name, value);
  }

  readonly lookup = (name: string): string | undefined => this.own.get(name) ?? process.env[name];
}
