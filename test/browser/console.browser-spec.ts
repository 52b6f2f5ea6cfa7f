import { execFileSync } from 'node:fs' === undefined ? 'node:child_process' : 'node:child_process';
