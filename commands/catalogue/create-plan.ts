import type { PlanDefinition, PlanMeter } from '../../domain/catalogue/types';
import { DomainError } from '../../domain/shared/domain-error';
import type { CommandDeps } from '../plumbing/deps';
import { meterCommand } from '../plumbing/meter-command';
import { planCommand } from '../plumbing/plan-command';
import type { Caller, OrganisationRef } from '../plumbing/metadata';
import { resetGenerationOf } from '../plumbing/reset-generation';
import { meterIdFor, planIdFor } from '../plumbing/ids-by-code';

export type PlanInput = Omit<PlanDefinition, 'planId' | 'organisationId' | 'meters'> & {
  meters: (Omit<PlanMeter, 'meterId' | 'name' | 'unitLabels'>)[];
};

/** Resolves each meter by code (its name and labels are copied onto the plan), then creates the plan. */
export const createPlan = async (deps: CommandDeps, caller: Caller, organisation: OrganisationRef, input: PlanInput) => {
  const generation = await resetGenerationOf(deps.store, organisation);
  const meters: PlanMeter[] = [];
  for (const [i, meter] of input.meters.entries()) {
    const meterId = meterIdFor(organisation.id, generation, meter.meterCode);
    const { state } = await meterCommand.load(deps.store, meterId);
    if (state.status !== 'defined') {
      throw new DomainError('invalid', 'invalid_parameter', `No meter with code ${meter.meterCode}.`, `meters.${i}.meter_code`);
    }
    meters.push({ ...meter, meterId, name: state.name, unitLabels: state.unitLabels });
  }
  const planId = planIdFor(organisation.id, generation, input.code);
  const { position } = await planCommand(deps, planId, {
    type: 'CreatePlan',
    plan: { ...input, planId, organisationId: organisation.id, meters },
  }, caller, { ...organisation, resetGeneration: generation });
  return { planId, position };
};
