import { quickStartService } from '../support/quick-start-service';
import { ensureBuilt, runNode } from '../support/service-process';

describe('npm run history', () => {
  beforeAll(ensureBuilt, 120_000);

  it('prints an object’s history as a timeline: time, actor, what happened, amounts; 404s another organisation’s', async () => {
    const { service, demo, created } = await quickStartService({ customer_code: 'ACME', plan_code: 'team', units: 4, charges: [] }, 'history-1');
    const invoice = created.body.invoice;
    const env = { DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' };
    try {
      // Read beside the running service: the log is read directly.
      const run = runNode('service/cli/history.js', [demo.sandboxId, invoice.id], env);
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toBe(`${invoice.id}: 2 event(s), oldest first`);
      // team: 12.0000 a seat × 4 = 48.0000, the line's amount, net and subtotal
      expect(lines[1]).toMatch(
        /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}api_key key_\w+ +InvoiceRaised v1 #0 {2}line0\.unitAmount=48\.0000 line0\.amount=48\.0000 .*line0\.chargeAmount=48\.0000 .*subtotal=48\.0000 {2}request req_\w+$/,
      );
      expect(lines[2]).toMatch(/ InvoiceSynced v1 #1 {2}total=52\.8000 amountPaid=0\.0000 creditNoteAmount=0\.0000/);
      const other = runNode('service/cli/history.js', [demo.organisationId, invoice.id], env);
      expect(other.status).toBe(1);
      expect(other.stderr).toContain(`organisation ${demo.organisationId} has no object ${invoice.id}`);
      expect(runNode('service/cli/history.js', [], env).status).toBe(2);
    } finally {
      await service.close();
    }
  });
});
