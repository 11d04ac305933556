import { type Clock, systemClock } from './clock';

/** Finds the clock an organisation runs on. Sandbox test clocks plug in here. */
export type Clocks = { forOrganisation(organisationId: string): Clock; wall: Clock };

export const realClocks = (wall: Clock = systemClock): Clocks => ({
  forOrganisation: () => wall,
  wall,
});
