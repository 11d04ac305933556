import request from 'supertest';
import { quickStart } from '../../service/quick-start';
import { startTestService } from './test-service';

/** A test service with the quick start made, and one subscription created in its sandbox with the demo key (201 checked). */
export const quickStartService = async (subscription: Record<string, unknown>, idempotencyKey: string) => {
  const service = await startTestService();
  const demo = (await quickStart(service.services))!;
  await service.services.projections.waitFor(demo.position);
  const created = await request(service.app).post('/v1/subscriptions').set('Authorization', `Bearer ${demo.apiKey}`).set('Idempotency-Key', idempotencyKey).send(subscription);
  expect(created.status).toBe(201);
  return { service, demo, created };
};
