/** What bench/nerve.mjs drives, bundled: the store and the roster, no runtime. */
export { Store } from './store/store';
export { openDb } from './store/db';
export { Roster } from './roster/roster';
