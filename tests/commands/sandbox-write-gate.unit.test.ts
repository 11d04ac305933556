import { SandboxWriteGate } from '../../commands/sandbox/sandbox-write-gate';

/** Lets every promise callback queued so far run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SandboxWriteGate: a sandbox’s writes and its resets, one side at a time', () => {
  it('starts a reset once the writes under way are done, holds new writes until it ends, and leaves other organisations alone', async () => {
    const gate = new SandboxWriteGate();
    const order: string[] = [];
    const leaveA = await gate.enter('org_1');
    const leaveB = await gate.enter('org_1');
    let endReset!: () => void;
    const resetting = gate.resetting('org_1', async () => {
      order.push('reset begins');
      await new Promise<void>((resolve) => (endReset = resolve));
      order.push('reset ends');
    });
    const later = gate.enter('org_1').then((leave) => (order.push('later write enters'), leave));
    const elsewhere = await gate.enter('org_2');
    order.push('other organisation enters');
    leaveA();
    await settle();
    expect(order).toEqual(['other organisation enters']);
    leaveB();
    // Leaving twice counts once.
    leaveB();
    await settle();
    expect(order).toEqual(['other organisation enters', 'reset begins']);
    endReset();
    await resetting;
    (await later)();
    elsewhere();
    expect(order).toEqual(['other organisation enters', 'reset begins', 'reset ends', 'later write enters']);
  });

  it('runs two resets of one organisation one after the other', async () => {
    const gate = new SandboxWriteGate();
    const order: string[] = [];
    const run = (name: string) =>
      gate.resetting('org_1', async () => {
        order.push(`${name} begins`);
        await settle();
        order.push(`${name} ends`);
      });
    await Promise.all([run('first'), run('second')]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second ends']);
  });
});
