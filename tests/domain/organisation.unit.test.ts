import { organisationDecider, type OrganisationCommand } from '../../domain/organisation/decider';
import type { OrganisationEvent } from '../../domain/organisation/events';
import { DEFAULT_SETTINGS, type OrganisationSettings } from '../../domain/organisation/settings';
import { deciderSpec } from '../support/decider-spec';

const spec = deciderSpec(organisationDecider);
const settings: OrganisationSettings = { ...DEFAULT_SETTINGS, name: 'Acme', timezone: 'Europe/London', defaultCurrency: 'GBP' };
const create = (overrides: Partial<Extract<OrganisationCommand, { type: 'CreateOrganisation' }>> = {}): OrganisationCommand => ({
  type: 'CreateOrganisation',
  organisationId: 'org_1',
  livemode: true,
  liveOrganisationId: null,
  settings,
  ...overrides,
});
const created = (livemode = true): OrganisationEvent => ({
  type: 'OrganisationCreated',
  data: { organisationId: 'org_1', livemode, liveOrganisationId: livemode ? null : 'org_live', settings },
});

describe('organisation decider', () => {
  it('creates an organisation with its settings', () => {
    spec([]).when(create()).then([created()]);
  });

  it('refuses to create the same organisation twice', () => {
    spec([created()]).when(create()).thenRefuses('organisation_exists');
  });

  it('records only the settings that change', () => {
    spec([created()])
      .when({ type: 'ChangeOrganisationSettings', changes: { name: 'Acme', paymentTermsDays: 30, setupMode: false } })
      .then([{ type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { paymentTermsDays: 30 } } }]);
  });

  it('records nothing when nothing changes', () => {
    spec([created()]).when({ type: 'ChangeOrganisationSettings', changes: { name: 'Acme' } }).then([]);
  });

  it('applies earlier changes before comparing', () => {
    spec([
      created(),
      { type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { name: 'Renamed' } } },
    ])
      .when({ type: 'ChangeOrganisationSettings', changes: { name: 'Renamed' } })
      .then([]);
  });

  it('refuses settings for an organisation that does not exist', () => {
    spec([]).when({ type: 'ChangeOrganisationSettings', changes: { name: 'X' } }).thenRefuses('organisation_not_found');
  });

  it('keeps Setup Mode off in a sandbox', () => {
    spec([created(false)])
      .when({ type: 'ChangeOrganisationSettings', changes: { setupMode: true } })
      .thenRefuses('invalid_parameter', 'setup_mode');
    spec([])
      .when(create({ livemode: false, liveOrganisationId: 'org_live', settings: { ...settings, setupMode: true } }))
      .thenRefuses('invalid_parameter', 'setup_mode');
  });

  describe('ResetSandbox', () => {
    const live: OrganisationSettings = { ...settings, name: 'Acme Live', paymentTermsDays: 30, renewalLeadDays: 3, setupMode: true, canCreateAccountingContacts: true, unitChangeDocument: 'separate' };
    const sandbox = { ...settings, canCreateAccountingContacts: false, unitChangeDocument: 'amend' } as const;
    const sandboxCreated: OrganisationEvent = {
      type: 'OrganisationCreated',
      data: { organisationId: 'org_1', livemode: false, liveOrganisationId: 'org_live', settings: sandbox },
    };
    const none = { settings: false, catalogue: false, customers: false, subscriptions: false };
    const reset = (generation: number, copy = none): OrganisationEvent => ({ type: 'SandboxReset', data: { organisationId: 'org_1', generation, copy } });

    it('is refused on a live organisation and on one that does not exist', () => {
      spec([created()]).when({ type: 'ResetSandbox', copy: none, liveSettings: live }).thenRefuses('invalid_parameter', 'org');
      spec([]).when({ type: 'ResetSandbox', copy: none, liveSettings: live }).thenRefuses('organisation_not_found');
    });

    it('counts generations from 1, each reset the next', () => {
      spec([sandboxCreated]).when({ type: 'ResetSandbox', copy: none, liveSettings: live }).then([reset(1)]);
      spec([sandboxCreated, reset(1), reset(2)]).when({ type: 'ResetSandbox', copy: none, liveSettings: live }).then([reset(3)]);
    });

    it('ticks what an option needs: subscriptions tick customers and catalogue, catalogue ticks settings', () => {
      const all = { settings: true, catalogue: true, customers: true, subscriptions: true };
      spec([sandboxCreated])
        .when({ type: 'ResetSandbox', copy: { ...none, subscriptions: true }, liveSettings: sandbox })
        .then([reset(1, all)]);
      spec([sandboxCreated])
        .when({ type: 'ResetSandbox', copy: { ...none, customers: true }, liveSettings: sandbox })
        .then([reset(1, { ...none, customers: true })]);
    });

    it('copies the live settings in the same append, keeping the sandbox API settings and Setup Mode off', () => {
      // Live differs in name, payment terms, lead days, Setup Mode and both API settings; the sandbox
      // takes the first three, keeps its API settings (false, amend) and never turns Setup Mode on.
      spec([sandboxCreated])
        .when({ type: 'ResetSandbox', copy: { ...none, settings: true }, liveSettings: live })
        .then([
          reset(1, { ...none, settings: true }),
          { type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { name: 'Acme Live', paymentTermsDays: 30, renewalLeadDays: 3 } } },
        ]);
    });

    it('leaves the settings as they are when they are not copied', () => {
      spec([sandboxCreated]).when({ type: 'ResetSandbox', copy: none, liveSettings: live }).then([reset(1)]);
    });
  });
});
