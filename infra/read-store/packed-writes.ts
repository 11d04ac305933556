import type { Write } from './port';

type PutJson = Extract<Write, { op: 'put_json' }>;
/** Consecutive `put_json` writes of one collection giving the same indexed fields, in that order. */
type Puts = { op: 'puts'; collection: string; fields: readonly string[] | null; count: number };

/**
 * Writes as they cross to a generation writer's thread: the documents put as JSON go as a few flat
 * arrays (their ids, their texts, their indexed fields' values), the rest as they are, in order. A
 * structured clone copies each object and each key it meets: a put as an object is two objects and
 * ten strings, in these arrays three to five strings (a fifth to a third of the time to post it).
 */
export type PackedWrites = Readonly<{ sequence: readonly (Write | Puts)[]; ids: readonly string[]; jsons: readonly string[]; values: readonly unknown[] }>;

/** Whether the put gives exactly these fields, in this order. */
const gives = (fields: PutJson['fields'], names: readonly string[] | null): boolean => {
  if (!fields || !names) return !fields && !names;
  let n = 0;
  for (const name in fields) if (name !== names[n++]) return false;
  return n === names.length;
};

export const packWrites = (writes: readonly Write[]): PackedWrites => {
  const sequence: (Write | Puts)[] = [];
  const ids: string[] = [];
  const jsons: string[] = [];
  const values: unknown[] = [];
  let puts: Puts | null = null;
  for (const write of writes) {
    if (write.op !== 'put_json') {
      sequence.push(write);
      puts = null;
      continue;
    }
    const { fields } = write;
    if (!puts || puts.collection !== write.collection || !gives(fields, puts.fields)) {
      puts = { op: 'puts', collection: write.collection, fields: fields ? Object.keys(fields) : null, count: 0 };
      sequence.push(puts);
    }
    puts.count += 1;
    ids.push(write.id);
    jsons.push(write.json);
    if (fields) for (const name of puts.fields!) values.push(fields[name]);
  }
  return { sequence, ids, jsons, values };
};

/** The writes `packWrites` was given, in their order. */
export const unpackWrites = ({ sequence, ids, jsons, values }: PackedWrites): Write[] => {
  const writes: Write[] = [];
  let put = 0;
  let value = 0;
  for (const item of sequence) {
    if (item.op !== 'puts') {
      writes.push(item);
      continue;
    }
    for (let i = 0; i < item.count; i++, put++) {
      const write: PutJson = { op: 'put_json', collection: item.collection, id: ids[put]!, json: jsons[put]! };
      if (item.fields) {
        const fields: Record<string, unknown> = {};
        for (const name of item.fields) fields[name] = values[value++];
        write.fields = fields;
      }
      writes.push(write);
    }
  }
  return writes;
};
