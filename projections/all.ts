import { apiKeysProjection } from './api-keys';
import { organisationsProjection } from './organisations';
import type { Projection } from './projection';

export const allProjections: readonly Projection[] = [organisationsProjection, apiKeysProjection];
