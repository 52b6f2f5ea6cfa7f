export * from './model-client.js';
