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
});
