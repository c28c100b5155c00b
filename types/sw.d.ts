// The service worker's surroundings for TypeScript's check (tsconfig.sw.json): the worker's
// global scope, and the two constants the server puts before static/sw.js
// (routers/pages.py: the cache's version and the static files' URLs).
/// <reference lib="webworker" />
declare const VERSION: string;
declare const ASSETS: string[];
