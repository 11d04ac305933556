import type { PlanDefinition, PlanMeter } from '../../domain/catalogue/types';
import { meterDecider } from '../../domain/meter/decider';
import { meterStream } from '../../domain/meter/events';
import { planDecider } from '../../domain/plan/decider';
import { planStream } from '../../domain/plan/events';
import { DomainError } from '../../domain/shared/domain-error';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { handle, loadState } from '../handle';
import { type Caller, eventMetadata } from '../metadata';
import { meterIdFor } from './define-meter';

export type PlanInput = Omit<PlanDefinition, 'planId' | 'organisationId' | 'meters'> & {
  meters: (Omit<PlanMeter, 'meterId' | 'name' | 'unitLabels'>)[];
};

export const planIdFor = (organisationId: string, code: string): string => derivedId('plan', organisationId, code);

/** Resolves each meter by code (its name and labels are copied onto the plan), then creates the plan. */
export const createPlan = async (deps: CommandDeps, caller: Caller, organisation: { id: string; livemode: boolean }, input: PlanInput) => {
  const meters: PlanMeter[] = [];
  for (const [i, meter] of input.meters.entries()) {
    const meterId = meterIdFor(organisation.id, meter.meterCode);
    const { state } = await loadState(deps.store, meterStream(meterId), meterDecider);
    if (state.status !== 'defined') {
      throw new DomainError('invalid', 'invalid_parameter', `No meter with code ${meter.meterCode}.`, `meters.${i}.meter_code`);
    }
    meters.push({ ...meter, meterId, name: state.name, unitLabels: state.unitLabels });
  }
  const planId = planIdFor(organisation.id, input.code);
  const result = await handle(
    deps.store,
    planStream(planId),
    planDecider,
    { type: 'CreatePlan', plan: { ...input, planId, organisationId: organisation.id, meters } },
    eventMetadata(caller, organisation, deps.clocks),
  );
  return { planId, position: result.position };
};
