import type { OrganisationSettings } from '../../domain/organisation/settings';
import { DEFAULT_SETTINGS } from '../../domain/organisation/settings';

/** A live organisation's settings as the domain records them: the defaults, named, in London, in pounds. */
export const organisationSettings: OrganisationSettings = { ...DEFAULT_SETTINGS, name: 'Acme', timezone: 'Europe/London', defaultCurrency: 'GBP' };
