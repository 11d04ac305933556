import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { OrganisationEvent, PlanLimits, SandboxCopy } from './events';
import { requireAccountingConnected, requireOpen } from './rules';
import { sandboxSettings, withNeeds } from './sandbox-copy';
import type { OrganisationSettings } from './settings';
import type { OrganisationState } from './state';
import { checkCpi, decideClockAdvance } from './time';

export type OrganisationCommand =
  | {
      type: 'CreateOrganisation';
      organisationId: string;
      livemode: boolean;
      liveOrganisationId: string | null;
      settings: OrganisationSettings;
    }
  | { type: 'ChangeOrganisationSettings'; changes: Partial<OrganisationSettings> }
  | { type: 'OpenSandbox'; sandboxId: string; copy: SandboxCopy }
  /** `liveSettings`: the live organisation's, copied when the settings option is ticked. */
  | { type: 'ResetSandbox'; copy: SandboxCopy; liveSettings: OrganisationSettings }
  | { type: 'ConnectAccounting'; tenantId: string; tenantName: string; accounts: OrganisationEvent<'AccountingConnected'>['data']['accounts'] }
  | { type: 'DisconnectAccounting' }
  | { type: 'MapAccounts'; revenue: string; usageRevenue: string | null }
  | { type: 'SetPlanLimits'; limits: PlanLimits }
  | { type: 'RecordCpi'; year: number; percent: string }
  | { type: 'AdvanceTestClock'; now: string; date: string };

const refuseSetupModeInSandbox = (livemode: boolean, setupMode: boolean | undefined): void => {
  if (!livemode && setupMode) {
    throw new DomainError('invalid', 'invalid_parameter', 'Setup Mode is always off in a sandbox.', 'setup_mode');
  }
};

/** The settings of `wanted` that differ from the organisation's. */
const changedSettings = (current: OrganisationSettings, wanted: Partial<OrganisationSettings>): Partial<OrganisationSettings> =>
  Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => value !== undefined && current[key as keyof OrganisationSettings] !== value),
  );

const evolve = (state: OrganisationState, event: OrganisationEvent): OrganisationState => {
  if (event.type === 'OrganisationCreated') {
    return {
      status: 'open',
      ...event.data,
      sandboxId: null,
      accounting: null,
      planLimits: { customers: null, subscriptions: null },
      resetGeneration: 0,
      cpi: {},
      testClock: null,
    };
  }
  if (state.status !== 'open') return state;
  switch (event.type) {
    case 'OrganisationSettingsChanged':
      return { ...state, settings: { ...state.settings, ...event.data.changes } };
    case 'SandboxOpened':
      return { ...state, sandboxId: event.data.sandboxId };
    case 'SandboxResetRequested':
      return state;
    case 'SandboxReset':
      // A reset returns the test clock to real time.
      return { ...state, resetGeneration: event.data.generation, testClock: null };
    case 'AccountingConnected':
      return {
        ...state,
        accounting: { tenantId: event.data.tenantId, accounts: event.data.accounts, revenueAccount: null, usageRevenueAccount: null },
      };
    case 'AccountingDisconnected':
      return { ...state, accounting: null };
    case 'AccountsMapped':
      return state.accounting
        ? { ...state, accounting: { ...state.accounting, revenueAccount: event.data.revenue, usageRevenueAccount: event.data.usageRevenue } }
        : state;
    case 'PlanLimitsSet':
      return { ...state, planLimits: { customers: event.data.customers, subscriptions: event.data.subscriptions } };
    case 'CpiRecorded':
      return { ...state, cpi: { ...state.cpi, [String(event.data.year)]: event.data.percent } };
    case 'TestClockAdvanced':
      return { ...state, testClock: event.data.frozenTime };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const decide = (command: OrganisationCommand, state: OrganisationState): OrganisationEvent[] => {
  switch (command.type) {
    case 'CreateOrganisation': {
      if (state.status !== 'none') {
        throw new DomainError('conflict', 'organisation_exists', 'This organisation already exists.');
      }
      refuseSetupModeInSandbox(command.livemode, command.settings.setupMode);
      const { type: _type, ...data } = command;
      return [{ type: 'OrganisationCreated', data }];
    }
    case 'ChangeOrganisationSettings': {
      const organisation = requireOpen(state);
      refuseSetupModeInSandbox(organisation.livemode, command.changes.setupMode);
      const changes = changedSettings(organisation.settings, command.changes);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'OrganisationSettingsChanged', data: { organisationId: organisation.organisationId, changes } }];
    }
    case 'OpenSandbox': {
      const organisation = requireOpen(state);
      if (!organisation.livemode) {
        throw new DomainError('invalid', 'invalid_parameter', 'A sandbox cannot have a sandbox of its own.', 'org');
      }
      if (organisation.sandboxId !== null) {
        throw new DomainError('conflict', 'sandbox_exists', `This organisation already has its sandbox, ${organisation.sandboxId}.`);
      }
      return [
        {
          type: 'SandboxOpened',
          data: { organisationId: organisation.organisationId, sandboxId: command.sandboxId, copy: withNeeds(command.copy) },
        },
      ];
    }
    case 'ResetSandbox': {
      const sandbox = requireOpen(state);
      if (sandbox.livemode) throw new DomainError('invalid', 'invalid_parameter', 'Only a sandbox can be reset.', 'org');
      const copy = withNeeds(command.copy);
      const { organisationId } = sandbox;
      const changes = changedSettings(sandbox.settings, sandboxSettings(command.liveSettings, copy, sandbox.settings));
      return [
        { type: 'SandboxReset', data: { organisationId, generation: sandbox.resetGeneration + 1, copy } },
        ...(Object.keys(changes).length > 0 ? [{ type: 'OrganisationSettingsChanged' as const, data: { organisationId, changes } }] : []),
      ];
    }
    case 'ConnectAccounting': {
      const organisation = requireOpen(state);
      if (organisation.accounting) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'AccountingConnected', data: { organisationId: organisation.organisationId, ...data } }];
    }
    case 'DisconnectAccounting': {
      const organisation = requireOpen(state);
      if (!organisation.livemode) {
        throw new DomainError('conflict', 'invalid_state', 'A sandbox keeps its accounting connection; reset the sandbox instead.');
      }
      if (!organisation.accounting) return [];
      return [{ type: 'AccountingDisconnected', data: { organisationId: organisation.organisationId, tenantId: organisation.accounting.tenantId } }];
    }
    case 'MapAccounts': {
      const organisation = requireOpen(state);
      const accounting = requireAccountingConnected(organisation, 'Connect the accounting system before mapping accounts.');
      const revenueCodes = new Set(accounting.accounts.filter((a) => a.type === 'revenue').map((a) => a.code));
      if (!revenueCodes.has(command.revenue)) {
        throw new DomainError('invalid', 'invalid_parameter', `${command.revenue} is not a revenue account.`, 'revenue');
      }
      if (command.usageRevenue !== null && !revenueCodes.has(command.usageRevenue)) {
        throw new DomainError('invalid', 'invalid_parameter', `${command.usageRevenue} is not a revenue account.`, 'usage_revenue');
      }
      return [{ type: 'AccountsMapped', data: { organisationId: organisation.organisationId, revenue: command.revenue, usageRevenue: command.usageRevenue } }];
    }
    case 'SetPlanLimits': {
      const organisation = requireOpen(state);
      return [{ type: 'PlanLimitsSet', data: { organisationId: organisation.organisationId, ...command.limits } }];
    }
    case 'RecordCpi': {
      const organisation = requireOpen(state);
      return [{ type: 'CpiRecorded', data: { organisationId: organisation.organisationId, year: command.year, percent: checkCpi(command.year, command.percent) } }];
    }
    case 'AdvanceTestClock': {
      const organisation = requireOpen(state);
      return [{ type: 'TestClockAdvanced', data: { organisationId: organisation.organisationId, frozenTime: decideClockAdvance(organisation, command.now, command.date) } }];
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const organisationDecider: Decider<OrganisationState, OrganisationCommand, OrganisationEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
