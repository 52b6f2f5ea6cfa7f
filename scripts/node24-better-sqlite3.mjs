// Preloaded (NODE_OPTIONS=--import) into every process of the Node 24 test run.
//
// node_modules/better-sqlite3 holds a native addon compiled for the Node that ran `npm ci` (its
// NODE_MODULE_VERSION); Node 24 refuses to load it. scripts/node24.sh builds the same version of
// better-sqlite3 for Node 24 in a cache outside the repository, and this hook sends every file of
// node_modules/better-sqlite3 to that copy, for require() and import alike. Everything else still
// resolves from node_modules.
import * as nodeModule from 'node:module';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';

const cache = process.env.TOOLGATE_NODE24_MODULES;
// A Node without synchronous hooks (a child started with the machine's Node 20) keeps its own copy.
if (cache && typeof nodeModule.registerHooks === 'function') {
  const from = new URL('../node_modules/better-sqlite3/', import.meta.url).href;
  const to = pathToFileURL(`${cache}/better-sqlite3/`).href;
  nodeModule.registerHooks({
    // By the resolved URL, not the specifier: Vitest imports packages by their absolute path.
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      return resolved.url.startsWith(from)
        ? { ...resolved, url: to + resolved.url.slice(from.length), shortCircuit: true }
        : resolved;
    },
  });
}
