import { join } from 'node:path';
import { StreamMarks } from '../../infra/event-store/stream-marks';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';

describe('stream marks of the embedded log', () => {
  const file = () => join(tempDir('stream-marks'), 'log.sqlite');

  it('see another connection’s commit, to any table, but not its PASSIVE checkpoint', async () => {
    const path = file();
    const [mine, theirs] = [openDatabase(path), openDatabase(path)];
    const store = new SqliteEventStore(mine);
    await store.append('s-1', [testEvent('A')], 'no_stream');
    const mark = store.streamMark();
    theirs.pragma('wal_checkpoint(PASSIVE)');
    expect(store.unchangedSince('s-1', mark)).toBe(true);
    theirs.exec('CREATE TABLE elsewhere (x); INSERT INTO elsewhere VALUES (1)');
    expect(store.unchangedSince('s-1', mark)).toBe(false);
    expect(store.unchangedSince('s-1', store.streamMark())).toBe(true);
  });

  it('are shared by every store on one connection', async () => {
    const db = openDatabase(file());
    const [one, two] = [new SqliteEventStore(db), new SqliteEventStore(db)];
    const mark = one.streamMark();
    await two.append('s-1', [testEvent('A')], 'no_stream');
    expect(one.unchangedSince('s-1', mark)).toBe(false);
  });

  it('forget the oldest streams past their capacity (by a tenth, at least one), and then cannot tell for a mark from before', () => {
    const marks = new StreamMarks(openDatabase(file()), 2);
    const before = marks.now();
    marks.appended('a');
    marks.appended('b');
    const afterB = marks.now();
    marks.appended('c');
    marks.appended('d');
    // 'a' and 'b' are forgotten: a mark from before their appends cannot tell, one from after them can.
    expect(marks.unchangedSince('a', before)).toBe(false);
    expect(marks.unchangedSince('never-appended', before)).toBe(false);
    expect(marks.unchangedSince('a', afterB)).toBe(true);
    expect(marks.unchangedSince('never-appended', afterB)).toBe(true);
    expect(marks.unchangedSince('c', afterB)).toBe(false);
  });
});
