import Legacy from 'better-sqlite3';
import NodeApi from 'better-sqlite3-napi';

/**
 * better-sqlite3 for the running Node.js. Version 13 (on Node-API, prebuilt for each platform)
 * wherever the runtime has Node-API 10: Node.js 22.14 and later, 24. Version 12 elsewhere: Node.js
 * 20 has Node-API 9 and cannot load 13 (it crashes opening a database). 12 alone will not do: on
 * Node.js 24 its addon aborts the process when a statement is collected (it removes a cleanup hook
 * of an environment already gone; the suite died so, mid-run). Both load their addon only when a
 * database is opened. Drop 12 once no machine runs Node.js 20.
 */
export const Database: typeof Legacy = Number(process.versions.napi) >= 10 ? NodeApi : Legacy;
