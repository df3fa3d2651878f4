// A worker thread of the map's parse pool (parse-pool.ts). The CLI runs TypeScript through tsx, which a
// worker does not inherit when it was registered in code (bin/sopworks.js): it is registered here too.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
