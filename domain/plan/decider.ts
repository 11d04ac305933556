import { planProblems } from '../catalogue/plan-rules';
import type { CatalogueStatus, PlanDefinition } from '../catalogue/types';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { PlanEvent } from './events';

export type PlanState = { status: 'none' } | { status: 'defined'; plan: PlanDefinition };

export type PlanCommand =
  | { type: 'CreatePlan'; plan: PlanDefinition }
  | { type: 'UpdatePlan'; organisationId: string; changes: { status?: CatalogueStatus; name?: string } };

const evolve = (state: PlanState, event: PlanEvent): PlanState => {
  switch (event.type) {
    case 'PlanCreated':
      return { status: 'defined', plan: event.data };
    case 'PlanUpdated':
      return state.status === 'none' ? state : { ...state, plan: { ...state.plan, ...event.data.changes } };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const decide = (command: PlanCommand, state: PlanState): PlanEvent[] => {
  switch (command.type) {
    case 'CreatePlan': {
      if (state.status !== 'none') {
        throw new DomainError('conflict', 'plan_exists', `A plan with code ${command.plan.code} exists.`, 'code');
      }
      const { plan } = command;
      const problem = planProblems(plan)[0];
      if (problem) throw new DomainError('invalid', 'invalid_parameter', `${problem.path}: ${problem.message}.`, problem.path);
      return [{ type: 'PlanCreated', data: plan }];
    }
    case 'UpdatePlan': {
      if (state.status === 'none' || state.plan.organisationId !== command.organisationId) {
        throw new DomainError('not_found', 'plan_not_found', 'No such plan.', 'id');
      }
      const changes: PlanEvent<'PlanUpdated'>['data']['changes'] = {};
      if (command.changes.status !== undefined && command.changes.status !== state.plan.status) changes.status = command.changes.status;
      if (command.changes.name !== undefined && command.changes.name !== state.plan.name) changes.name = command.changes.name;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'PlanUpdated', data: { planId: state.plan.planId, organisationId: state.plan.organisationId, changes } }];
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const planDecider: Decider<PlanState, PlanCommand, PlanEvent> = { initialState: () => ({ status: 'none' }), evolve, decide };
