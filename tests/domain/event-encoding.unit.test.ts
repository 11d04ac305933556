import { z } from 'zod';
import { decodeEvent, encodeEvent } from '../../domain/decode-event';
import { eventCatalogue } from '../../domain/event-catalogue';
import { type EventDefinition, schemaFingerprint } from '../../domain/shared/event-definition';

// AccountsMapped: { organisationId, revenue, usageRevenue: string | null }, version 1.
const mapped = { organisationId: 'org_1', revenue: '200', usageRevenue: null };
const fingerprint = schemaFingerprint(eventCatalogue.get('AccountsMapped')!);
const recorded = (data: unknown, metadata: { dataSchema?: string } = {}, version = 1) => ({ type: 'AccountsMapped', version, data, metadata });

describe('events checked once, when appended', () => {
  it('encodes data as a reader would read it: what the schema does not name dropped, with its version and fingerprint', () => {
    expect(encodeEvent('AccountsMapped', { ...mapped, leaked: 'from the command' })).toEqual({ version: 1, data: mapped, dataSchema: fingerprint });
  });

  it('refuses data its schema refuses, and a type the catalogue does not know', () => {
    expect(() => encodeEvent('AccountsMapped', { ...mapped, revenue: 200 })).toThrow();
    expect(() => encodeEvent('NoSuchEvent', {})).toThrow('unknown event type NoSuchEvent');
  });

  it('takes data appended checked against this schema as stored: it is not checked again', () => {
    // Only a skipped check leaves a field the schema does not name; appends never store one.
    const decoded = decodeEvent(recorded({ ...mapped, unchecked: true }, { dataSchema: fingerprint }));
    expect(decoded.data).toEqual({ ...mapped, unchecked: true });
  });

  it('checks data without a fingerprint, with another schema’s, or of an older version', () => {
    expect(decodeEvent(recorded({ ...mapped, stray: 1 })).data).toEqual(mapped);
    expect(decodeEvent(recorded({ ...mapped, stray: 1 }, { dataSchema: `${fingerprint}x` })).data).toEqual(mapped);
    expect(() => decodeEvent(recorded({ ...mapped, revenue: 200 }, { dataSchema: 'other' }))).toThrow();
    expect(() => decodeEvent(recorded(mapped, { dataSchema: fingerprint }, 0))).toThrow('no upcaster from version 0');
  });

  it('fingerprints what a schema accepts: equal schemas alike, any change to fields, types or version apart', () => {
    const definition = (schema: z.ZodType, version = 1): EventDefinition => ({ type: 'Example', version, schema });
    const base = schemaFingerprint(definition(z.object({ id: z.string(), units: z.number() })));
    expect(schemaFingerprint(definition(z.object({ id: z.string(), units: z.number() })))).toBe(base);
    const changed = [
      definition(z.object({ id: z.string(), units: z.number(), note: z.string() })),
      definition(z.object({ id: z.string(), units: z.number().optional() })),
      definition(z.object({ id: z.string(), units: z.string() })),
      definition(z.object({ id: z.string().regex(/^x/), units: z.number() })),
      definition(z.object({ id: z.string(), units: z.number() }), 2),
    ].map(schemaFingerprint);
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });
});
