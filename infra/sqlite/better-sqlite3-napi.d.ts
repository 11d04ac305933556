/** better-sqlite3 13 installed under its own name beside 12 (see `driver.ts`): the same API. */
declare module 'better-sqlite3-napi' {
  import Database from 'better-sqlite3';
  export = Database;
}
