import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { OrganisationEvent, SandboxCopy } from './events';
import type { OrganisationSettings } from './settings';

export type OrganisationState =
  | { status: 'none' }
  | {
      status: 'open';
      organisationId: string;
      livemode: boolean;
      liveOrganisationId: string | null;
      settings: OrganisationSettings;
      sandboxId: string | null;
    };

export type OrganisationCommand =
  | {
      type: 'CreateOrganisation';
      organisationId: string;
      livemode: boolean;
      liveOrganisationId: string | null;
      settings: OrganisationSettings;
    }
  | { type: 'ChangeOrganisationSettings'; changes: Partial<OrganisationSettings> }
  | { type: 'OpenSandbox'; sandboxId: string; copy: SandboxCopy };

const refuseSetupModeInSandbox = (livemode: boolean, setupMode: boolean | undefined): void => {
  if (!livemode && setupMode) {
    throw new DomainError('invalid', 'invalid_parameter', 'Setup Mode is always off in a sandbox.', 'setup_mode');
  }
};

/** Ticking an option ticks the ones it needs: subscriptions need customers and catalogue; catalogue needs settings. */
export const withNeeds = (copy: SandboxCopy): SandboxCopy => {
  const customers = copy.customers || copy.subscriptions;
  const catalogue = copy.catalogue || copy.subscriptions;
  return { settings: copy.settings || catalogue, catalogue, customers, subscriptions: copy.subscriptions };
};

const evolve = (state: OrganisationState, event: OrganisationEvent): OrganisationState => {
  switch (event.type) {
    case 'OrganisationCreated':
      return { status: 'open', ...event.data, sandboxId: null };
    case 'OrganisationSettingsChanged':
      if (state.status !== 'open') return state;
      return { ...state, settings: { ...state.settings, ...event.data.changes } };
    case 'SandboxOpened':
      if (state.status !== 'open') return state;
      return { ...state, sandboxId: event.data.sandboxId };
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
      if (state.status !== 'open') {
        throw new DomainError('not_found', 'organisation_not_found', 'No such organisation.');
      }
      refuseSetupModeInSandbox(state.livemode, command.changes.setupMode);
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([key, value]) => value !== undefined && state.settings[key as keyof OrganisationSettings] !== value,
        ),
      ) as Partial<OrganisationSettings>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'OrganisationSettingsChanged', data: { organisationId: state.organisationId, changes } }];
    }
    case 'OpenSandbox': {
      if (state.status !== 'open') {
        throw new DomainError('not_found', 'organisation_not_found', 'No such organisation.');
      }
      if (!state.livemode) {
        throw new DomainError('invalid', 'invalid_parameter', 'A sandbox cannot have a sandbox of its own.', 'org');
      }
      if (state.sandboxId !== null) {
        throw new DomainError('conflict', 'sandbox_exists', `This organisation already has its sandbox, ${state.sandboxId}.`);
      }
      return [
        {
          type: 'SandboxOpened',
          data: { organisationId: state.organisationId, sandboxId: command.sandboxId, copy: withNeeds(command.copy) },
        },
      ];
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
